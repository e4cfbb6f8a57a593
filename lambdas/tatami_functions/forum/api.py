"""Routes of the forum model (seed 001): the forum list, a forum's threads, a thread's replies."""

from __future__ import annotations

from http import HTTPStatus
from typing import Annotated, Any, Literal

from aws_lambda_powertools.event_handler.openapi.params import Path, Query

from tatami_functions.common.api import answer_errors, create_resolver
from tatami_functions.common.instants import Instant, bounds
from tatami_functions.common.paging import Limit, NextToken
from tatami_functions.common.text import path_name
from tatami_functions.forum import service
from tatami_functions.forum.exceptions import ForumNotFoundError, ThreadNotFoundError
from tatami_functions.forum.repository import ForumRepository, ReplyQuery

app = create_resolver("forums")

ForumName = Annotated[str, Path(min_length=1, max_length=255, description="The forum's Name")]
Subject = Annotated[str, Path(min_length=1, max_length=1024, description="The thread's Subject")]
From = Annotated[Instant | None, Query(alias="from", description="Replies at or after (ISO 8601)")]
To = Annotated[Instant | None, Query(alias="to", description="Replies at or before (ISO 8601)")]
Order = Annotated[Literal["asc", "desc"], Query(description="ReplyDateTime order")]


def repository() -> ForumRepository:
    return ForumRepository.from_environment()


answer_errors(
    app,
    {
        ForumNotFoundError: (HTTPStatus.NOT_FOUND, "{exc}"),
        ThreadNotFoundError: (HTTPStatus.NOT_FOUND, "{exc}"),
    },
)


@app.get("/forums", summary="Every forum (Scan of the Forum table)")
def list_forums(limit: Limit = 20, next_: NextToken = None) -> dict[str, Any]:
    return service.forums(repository(), limit, next_)


@app.get("/forums/<forum>", summary="One forum (GetItem)")
def get_forum(forum: ForumName) -> dict[str, Any]:
    return repository().get_forum(path_name(forum, "forum"))


@app.get("/forums/<forum>/threads", summary="A forum's threads in Subject order (Query by ForumName)")
def list_threads(forum: ForumName, limit: Limit = 20, next_: NextToken = None) -> dict[str, Any]:
    return service.threads(repository(), path_name(forum, "forum"), limit, next_)


@app.get("/forums/<forum>/threads/<subject>", summary="One thread (GetItem on ForumName + Subject)")
def get_thread(forum: ForumName, subject: Subject) -> dict[str, Any]:
    return repository().get_thread(path_name(forum, "forum"), path_name(subject, "subject", "%"))


@app.get(
    "/forums/<forum>/threads/<subject>/replies",
    summary="A thread's replies in ReplyDateTime order (Query on Id, BETWEEN on ReplyDateTime)",
)
def list_replies(
    forum: ForumName,
    subject: Subject,
    from_: From = None,
    to: To = None,
    order: Order = "asc",
    limit: Limit = 20,
    next_: NextToken = None,
) -> dict[str, Any]:
    low, high = bounds(from_, to)
    query = ReplyQuery(
        path_name(forum, "forum"), path_name(subject, "subject", "%"), low, high, order == "desc"
    )
    return service.replies(repository(), query, limit, next_)
