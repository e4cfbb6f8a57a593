"""Seed 001's forum on DynamoDB Local: each screen returns the seed's items with the operation it names.

Forum list = Scan; a forum's threads = Query by ForumName; a thread's replies = Query on Id with
BETWEEN on ReplyDateTime. Each test asserts the call made and that DynamoDB read only what it returned.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tatami.samples.forum import forum_items, save_items
from tatami_functions.forum import service
from tatami_functions.forum.exceptions import InvalidItemError, ThreadNotFoundError
from tatami_functions.forum.replies import ReplyQuery
from tatami_functions.forum.repository import ForumRepository
from tatami_functions.forum.settings import ForumTables
from tatami_functions.forum.table import FORUMS, REPLIES, THREADS
from tests.support.forum_orders import Recorder, create_tables, local_client

SEED = forum_items()


@pytest.fixture(scope="module")
def forum(dynamodb_local: str) -> Iterator[tuple[ForumRepository, Recorder]]:
    client = local_client(dynamodb_local)
    names = create_tables(client, forums=FORUMS, threads=THREADS, replies=REPLIES)
    repository = ForumRepository(ForumTables(names["forums"], names["threads"], names["replies"]), client)
    save_items(repository, SEED)
    yield repository, Recorder().attach(client)


@pytest.fixture(autouse=True)
def _token_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tatami_functions.common.tokens._secret", lambda: b"forum-test-key")


def test_forum_list_screen_is_one_scan_of_the_two_forums(forum: tuple[ForumRepository, Any]) -> None:
    repository, recorder = forum
    page = repository.list_forums(20)
    assert sorted(page.items, key=lambda f: f["Name"]) == sorted(SEED["Forum"], key=lambda f: f["Name"])
    (call,) = recorder.take()
    assert (call.operation, call.index, call.scanned, call.count) == ("Scan", None, 2, 2)
    assert call.units is not None and call.units > 0


def test_dynamodb_forum_threads_are_one_query_in_subject_order(forum: tuple[ForumRepository, Any]) -> None:
    repository, recorder = forum
    page = repository.list_threads("DynamoDB", 20)
    assert page.items == SEED["Thread"][:2] and page.cursor is None
    (call,) = recorder.take()
    assert (call.operation, call.index, call.scanned, call.count) == ("Query", None, 2, 2)


def test_the_seeds_between_query_returns_the_two_december_replies(forum: tuple[ForumRepository, Any]) -> None:
    repository, recorder = forum
    # Seed 001: Id = 'DynamoDB#DynamoDB Thread 1' AND ReplyDateTime BETWEEN '2011-12-15…' AND '2011-12-31…'
    query = ReplyQuery(
        "DynamoDB", "DynamoDB Thread 1", "2011-12-15T00:00:00.000Z", "2011-12-31T23:59:59.999Z"
    )
    page = repository.list_replies(query, 20)
    assert page.items == SEED["Reply"][1:3]
    assert [r["ReplyDateTime"] for r in page.items] == [
        "2011-12-18T00:40:57.165Z",
        "2011-12-25T00:40:57.165Z",
    ]
    (call,) = recorder.take()
    assert (call.operation, call.index, call.scanned, call.count) == ("Query", None, 2, 2)


def test_thread_2_reply_screen_and_both_orders(forum: tuple[ForumRepository, Any]) -> None:
    repository, recorder = forum
    ascending = repository.list_replies(ReplyQuery("DynamoDB", "DynamoDB Thread 2"), 20).items
    assert ascending == SEED["Reply"][3:5]
    descending = repository.list_replies(ReplyQuery("DynamoDB", "DynamoDB Thread 2", descending=True), 20)
    assert descending.items == ascending[::-1]
    assert [(c.operation, c.scanned) for c in recorder.take()] == [("Query", 2), ("Query", 2)]


def test_pages_of_one_reply_walk_the_thread_without_an_empty_last_page(
    forum: tuple[ForumRepository, Any],
) -> None:
    repository, recorder = forum
    seen, token = [], None
    for _ in range(5):
        body = service.replies(ReplyQuery("DynamoDB", "DynamoDB Thread 1"), 1, token, repository=repository)
        seen += body["items"]
        token = body["next"]
        if token is None:
            break
    assert seen == SEED["Reply"][:3]
    assert [c.scanned for c in recorder.take()] == [2, 2, 1]  # a page reads one more item, never more


def test_a_thread_is_one_getitem_and_an_unknown_one_is_not_found(forum: tuple[ForumRepository, Any]) -> None:
    repository, recorder = forum
    assert repository.get_thread("Amazon S3", "Amazon S3 Thread 1") == SEED["Thread"][2]
    with pytest.raises(ThreadNotFoundError):
        service.replies(ReplyQuery("DynamoDB", "DynamoDB Thread 9"), 20, None, repository=repository)
    assert recorder.operations() == [("GetItem", None), ("Query", None), ("GetItem", None)]


def test_an_empty_range_of_a_real_thread_is_an_empty_page(forum: tuple[ForumRepository, Any]) -> None:
    repository, _ = forum
    query = ReplyQuery(
        "Amazon S3", "Amazon S3 Thread 1", "2011-01-01T00:00:00.000Z", "2011-01-02T00:00:00.000Z"
    )
    with pytest.raises(ThreadNotFoundError):  # Amazon S3 Thread 1 has no Reply items and ...
        service.replies(ReplyQuery("Amazon S3", "no such thread"), 20, None, repository=repository)
    assert service.replies(query, 20, None, repository=repository)["items"] == []  # ... exists as a thread


def test_saving_refuses_names_that_break_the_reply_key(forum: tuple[ForumRepository, Any]) -> None:
    repository, _ = forum
    with pytest.raises(InvalidItemError, match="Id"):
        repository.save_reply({"Id": "a#b#c", "ReplyDateTime": "2012-01-01T00:00:00.000Z"})
    with pytest.raises(InvalidItemError, match="#"):
        repository.save_thread({"ForumName": "C#", "Subject": "x"})
