"""The Forum, Thread and Reply tables of seed 001 (`table`): the forum Scan, the thread and reply
Queries, GetItem and the loaders' writes.

A forum's threads and a thread's replies are one Query each, returned in range-key order, with BETWEEN
on ReplyDateTime.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self

from tatami_functions.common.attribute_values import low_level, plain
from tatami_functions.common.paging import Item, ListPage, ReadStats, cut, start_key
from tatami_functions.common.repository import Repository, range_condition
from tatami_functions.forum.exceptions import (
    ForumNotFoundError,
    ForumUnavailableError,
    InvalidItemError,
    ThreadNotFoundError,
)
from tatami_functions.forum.replies import SEPARATOR, ReplyQuery, reply_id
from tatami_functions.forum.settings import ForumTables
from tatami_functions.forum.table import FORUMS, REPLIES, THREADS

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

FORUM_KEY = FORUMS.key_names
THREAD_KEY = THREADS.key_names
REPLY_KEY = REPLIES.key_names


class ForumRepository(Repository["DynamoDBClient"]):
    """Reads (and, for loaders, writes) the three forum tables."""

    noun, unavailable = "forums", ForumUnavailableError

    def __init__(self, tables: ForumTables, client: DynamoDBClient | None = None) -> None:
        super().__init__(client)
        self.tables = tables

    @classmethod
    def _from_env(cls) -> Self:
        return cls(ForumTables.from_env())

    def list_forums(self, limit: int, cursor: Item | None = None) -> ListPage:
        """Every forum, one page at a time: a Scan, the only one in the forum model."""
        request: dict[str, Any] = {"TableName": self.tables.forums, "Limit": limit + 1}
        response = self._call("scan", **request, **start_key(cursor), ReturnConsumedCapacity="TOTAL")
        return _page(response, limit, FORUM_KEY)

    def get_forum(self, name: str) -> dict[str, Any]:
        item = self._get(self.tables.forums, {"Name": name})
        if item is None:
            raise ForumNotFoundError(name)
        return item

    def list_threads(self, forum: str, limit: int, cursor: Item | None = None) -> ListPage:
        """A forum's threads in Subject order: Query ForumName = forum."""
        response = self._call(
            "query",
            TableName=self.tables.threads,
            KeyConditionExpression="ForumName = :forum",
            ExpressionAttributeValues={":forum": {"S": forum}},
            Limit=limit + 1,
            ReturnConsumedCapacity="TOTAL",
            **start_key(cursor),
        )
        return _page(response, limit, THREAD_KEY)

    def get_thread(self, forum: str, subject: str) -> dict[str, Any]:
        item = self._get(self.tables.threads, {"ForumName": forum, "Subject": subject})
        if item is None:
            raise ThreadNotFoundError(forum, subject)
        return item

    def list_replies(self, query: ReplyQuery, limit: int, cursor: Item | None = None) -> ListPage:
        """A thread's replies in ReplyDateTime order: Query Id = forum#subject [AND a range]."""
        condition, values = range_condition("ReplyDateTime", query.low, query.high)
        response = self._call(
            "query",
            TableName=self.tables.replies,
            KeyConditionExpression=" AND ".join(filter(None, ["Id = :id", condition])),
            ExpressionAttributeValues={":id": {"S": reply_id(query.forum, query.subject)}, **values},
            ScanIndexForward=not query.descending,
            Limit=limit + 1,
            ReturnConsumedCapacity="TOTAL",
            **start_key(cursor),
        )
        return _page(response, limit, REPLY_KEY)

    def save_forum(self, item: Mapping[str, Any]) -> None:
        self._put(self.tables.forums, item, FORUM_KEY)

    def save_thread(self, item: Mapping[str, Any]) -> None:
        self._put(self.tables.threads, item, THREAD_KEY)

    def save_reply(self, item: Mapping[str, Any]) -> None:
        """Save a reply; its Id must be `forum#subject` with exactly one '#'."""
        parts = str(item.get("Id", "")).split(SEPARATOR)
        if len(parts) != 2 or not all(parts):
            raise InvalidItemError(f"Id: {item.get('Id')!r} is not 'forum{SEPARATOR}subject'")
        self._put(self.tables.replies, item, REPLY_KEY)

    def _get(self, table: str, key: Mapping[str, str]) -> dict[str, Any] | None:
        response = self._call("get_item", TableName=table, Key={k: {"S": v} for k, v in key.items()})
        return plain(response["Item"]) if "Item" in response else None

    def _put(self, table: str, item: Mapping[str, Any], key_names: tuple[str, ...]) -> None:
        for name in key_names:
            if not isinstance(item.get(name), str) or not item[name]:
                raise InvalidItemError(f"{name}: a non-empty string is required")
        if SEPARATOR in str(item.get("Name", item.get("ForumName", ""))):
            raise InvalidItemError(f"forum names must not contain {SEPARATOR!r}")
        self._call("put_item", TableName=table, Item=low_level(item))


def _page(response: Mapping[str, Any], limit: int, key_names: tuple[str, ...]) -> ListPage:
    items, cursor = cut(response.get("Items", []), response.get("LastEvaluatedKey"), limit, key_names)
    return ListPage([plain(item) for item in items], cursor, ReadStats.of(response))


def repository() -> ForumRepository:
    """The function's repository, named by its environment (made once per execution environment)."""
    return ForumRepository.from_environment()
