"""Routes of the forum model (seed 001): the forum list, a forum's threads, a thread's replies."""

from __future__ import annotations

from typing import Any

from tatami_functions.common.api import create_resolver
from tatami_functions.common.instants import bounds
from tatami_functions.common.paging import DEFAULT_LIMIT, Limit, NextToken
from tatami_functions.common.text import path_name
from tatami_functions.forum import service
from tatami_functions.forum.replies import ReplyQuery
from tatami_functions.forum.schemas import ForumName, From, Order, Subject, To

app = create_resolver("forums")


@app.get("/forums", summary="Every forum (Scan of the Forum table)")
def list_forums(limit: Limit = DEFAULT_LIMIT, next_: NextToken = None) -> dict[str, Any]:
    return service.forums(limit, next_)


@app.get("/forums/<forum>", summary="One forum (GetItem)")
def get_forum(forum: ForumName) -> dict[str, Any]:
    return service.forum(path_name(forum, "forum"))


@app.get("/forums/<forum>/threads", summary="A forum's threads in Subject order (Query by ForumName)")
def list_threads(forum: ForumName, limit: Limit = DEFAULT_LIMIT, next_: NextToken = None) -> dict[str, Any]:
    return service.threads(path_name(forum, "forum"), limit, next_)


@app.get("/forums/<forum>/threads/<subject>", summary="One thread (GetItem on ForumName + Subject)")
def get_thread(forum: ForumName, subject: Subject) -> dict[str, Any]:
    return service.thread(path_name(forum, "forum"), path_name(subject, "subject", "%"))


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
    limit: Limit = DEFAULT_LIMIT,
    next_: NextToken = None,
) -> dict[str, Any]:
    low, high = bounds(from_, to)
    query = ReplyQuery(
        path_name(forum, "forum"), path_name(subject, "subject", "%"), low, high, order == "desc"
    )
    return service.replies(query, limit, next_)
