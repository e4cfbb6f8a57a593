"""The forum routes over real HTTP on the app's local cloud, with the `make run` sample data: each test
asks the API what seed 001 asks and checks the answer and what it cost (`stats`)."""

from __future__ import annotations

from tatami.samples import forum as sample
from tests.support.forum_orders import get

SEED = sample.forum_items()


def test_forum_list_and_one_forum(forum_orders_api: str) -> None:
    status, body = get(forum_orders_api, "/forums")
    assert status == 200
    assert sorted(body["items"], key=lambda f: f["Name"]) == sorted(SEED["Forum"], key=lambda f: f["Name"])
    assert body["stats"] == {"items_read": 2, "queries": 1, "consumed_rcu": body["stats"]["consumed_rcu"]}
    assert get(forum_orders_api, "/forums/Amazon S3") == (200, SEED["Forum"][1])


def test_threads_of_a_forum_and_one_thread(forum_orders_api: str) -> None:
    status, body = get(forum_orders_api, "/forums/DynamoDB/threads")
    assert (status, body["items"], body["stats"]["items_read"]) == (200, SEED["Thread"][:2], 2)
    assert get(forum_orders_api, "/forums/DynamoDB/threads/DynamoDB Thread 2") == (200, SEED["Thread"][1])


def test_replies_between_two_dates(forum_orders_api: str) -> None:
    status, body = get(
        forum_orders_api,
        "/forums/DynamoDB/threads/DynamoDB Thread 1/replies",
        **{"from": "2011-12-15T00:00:00.000Z", "to": "2011-12-31T23:59:59.999Z"},
    )
    assert (status, body["items"], body["stats"]["items_read"]) == (200, SEED["Reply"][1:3], 2)
