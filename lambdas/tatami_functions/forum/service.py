"""The forum's three screens (seed 001): forum list, a forum's threads, a thread's replies.

Plain functions over a `ForumRepository`: they bind page tokens to the query they belong to and
tell an empty list from an unknown forum or thread (one GetItem, only when a first page is empty).
"""

from __future__ import annotations

from typing import Any

from tatami_functions.common.paging import cursor_from, scope
from tatami_functions.forum.repository import ForumRepository, ReplyQuery


def forums(repository: ForumRepository, limit: int, token: str | None) -> dict[str, Any]:
    """The forum list screen: every forum (a Scan).

    >>> forums(repository, 20, None)["items"][0]["Name"]  # doctest: +SKIP
    'DynamoDB'
    """
    token_scope = scope("forums")
    return repository.list_forums(limit, cursor_from(token, token_scope)).body(token_scope)


def threads(repository: ForumRepository, forum: str, limit: int, token: str | None) -> dict[str, Any]:
    """A forum's thread list: Query ForumName = forum; 404 if the forum does not exist.

    >>> [t["Subject"] for t in threads(repository, "DynamoDB", 20, None)["items"]]  # doctest: +SKIP
    ['DynamoDB Thread 1', 'DynamoDB Thread 2']
    """
    token_scope = scope("threads", forum=forum)
    cursor = cursor_from(token, token_scope)
    page = repository.list_threads(forum, limit, cursor)
    if not page.items and cursor is None:
        repository.get_forum(forum)  # raises ForumNotFoundError: an unknown forum is a 404
    return page.body(token_scope)


def replies(repository: ForumRepository, query: ReplyQuery, limit: int, token: str | None) -> dict[str, Any]:
    """A thread's replies, optionally within a ReplyDateTime range; 404 if the thread does not exist.

    >>> q = ReplyQuery("DynamoDB", "DynamoDB Thread 1", low="2011-12-15T00:00:00.000Z")
    >>> len(replies(repository, q, 20, None)["items"])  # doctest: +SKIP
    2
    """
    token_scope = scope(
        "replies",
        forum=query.forum,
        subject=query.subject,
        low=query.low,
        high=query.high,
        descending=query.descending,
    )
    cursor = cursor_from(token, token_scope)
    page = repository.list_replies(query, limit, cursor)
    if not page.items and cursor is None:
        repository.get_thread(query.forum, query.subject)
    return page.body(token_scope)
