"""The forum's screens (seed 001): the forum list, a forum and its threads, a thread and its replies.

They bind page tokens to the query they belong to and tell an empty list from an unknown forum or
thread (one GetItem, only when a first page is empty). Each takes the repository to use, the
function's own (`repository()`) when not given.
"""

from __future__ import annotations

from typing import Any

from tatami_functions.common.paging import cursor_from, scope
from tatami_functions.forum import repository as storage
from tatami_functions.forum.replies import ReplyQuery
from tatami_functions.forum.repository import ForumRepository


def forums(limit: int, token: str | None, repository: ForumRepository | None = None) -> dict[str, Any]:
    """The forum list screen: every forum (a Scan).

    For example (not run as a doctest)::

        forums(20, None)["items"][0]["Name"]
        # -> 'DynamoDB'
    """
    token_scope = scope("forum.forums")
    page = (repository or storage.repository()).list_forums(limit, cursor_from(token, token_scope))
    return page.body(token_scope)


def forum(name: str, repository: ForumRepository | None = None) -> dict[str, Any]:
    """One forum; ForumNotFoundError (a 404) if there is none."""
    return (repository or storage.repository()).get_forum(name)


def threads(
    forum: str, limit: int, token: str | None, repository: ForumRepository | None = None
) -> dict[str, Any]:
    """A forum's thread list: Query ForumName = forum; 404 if the forum does not exist.

    For example (not run as a doctest)::

        [t["Subject"] for t in threads("DynamoDB", 20, None)["items"]]
        # -> ['DynamoDB Thread 1', 'DynamoDB Thread 2']
    """
    tables = repository or storage.repository()
    token_scope = scope("forum.threads", forum=forum)
    cursor = cursor_from(token, token_scope)
    page = tables.list_threads(forum, limit, cursor)
    if not page.items and cursor is None:
        tables.get_forum(forum)  # raises ForumNotFoundError: an unknown forum is a 404
    return page.body(token_scope)


def thread(forum: str, subject: str, repository: ForumRepository | None = None) -> dict[str, Any]:
    """One thread; ThreadNotFoundError (a 404) if there is none."""
    return (repository or storage.repository()).get_thread(forum, subject)


def replies(
    query: ReplyQuery, limit: int, token: str | None, repository: ForumRepository | None = None
) -> dict[str, Any]:
    """A thread's replies, optionally within a ReplyDateTime range; 404 if the thread does not exist.

    For example (not run as a doctest)::

        q = ReplyQuery("DynamoDB", "DynamoDB Thread 1", low="2011-12-15T00:00:00.000Z")
        len(replies(q, 20, None)["items"])
        # -> 2
    """
    tables = repository or storage.repository()
    token_scope = scope(
        "forum.replies",
        forum=query.forum,
        subject=query.subject,
        low=query.low,
        high=query.high,
        descending=query.descending,
    )
    cursor = cursor_from(token, token_scope)
    page = tables.list_replies(query, limit, cursor)
    if not page.items and cursor is None:
        tables.get_thread(query.forum, query.subject)
    return page.body(token_scope)
