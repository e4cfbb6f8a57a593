"""Every seed 001/002 route over real HTTP on the app's local cloud, with the `make run` sample data.

The sample loader writes through the models' repositories; each test then asks the API what the
seeds ask and checks the answer and what it cost (`stats.items_read`, `stats.queries`).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import requests

from tatami.local.cloud import LocalCloud
from tatami.samples import models_forum_orders as sample

SEED = sample.forum_items()


@pytest.fixture(scope="module")
def api(app_cloud: LocalCloud) -> Iterator[str]:
    summary = sample.load(app_cloud, lambda done, total: None)
    assert "2 forums, 3 threads, 5 replies" in summary
    yield app_cloud.api_url


def get(api: str, path: str, **query: Any) -> tuple[int, Any]:
    response = requests.get(f"{api}{path}", params=query, timeout=30)
    return response.status_code, response.json()


def every_page(api: str, path: str, **query: Any) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for _ in range(100):
        status, body = get(api, path, **query)
        assert status == 200, body
        items += body["items"]
        if body["next"] is None:
            return items
        query["next"] = body["next"]
    raise AssertionError("pagination did not end")


def test_forum_list_and_one_forum(api: str) -> None:
    status, body = get(api, "/forums")
    assert status == 200
    assert sorted(body["items"], key=lambda f: f["Name"]) == sorted(SEED["Forum"], key=lambda f: f["Name"])
    assert body["stats"] == {"items_read": 2, "queries": 1, "consumed_rcu": body["stats"]["consumed_rcu"]}
    assert get(api, "/forums/Amazon S3") == (200, SEED["Forum"][1])


def test_threads_of_a_forum_and_one_thread(api: str) -> None:
    status, body = get(api, "/forums/DynamoDB/threads")
    assert (status, body["items"], body["stats"]["items_read"]) == (200, SEED["Thread"][:2], 2)
    assert get(api, "/forums/DynamoDB/threads/DynamoDB Thread 2") == (200, SEED["Thread"][1])


def test_replies_between_two_dates(api: str) -> None:
    status, body = get(
        api,
        "/forums/DynamoDB/threads/DynamoDB Thread 1/replies",
        **{"from": "2011-12-15T00:00:00.000Z", "to": "2011-12-31T23:59:59.999Z"},
    )
    assert (status, body["items"], body["stats"]["items_read"]) == (200, SEED["Reply"][1:3], 2)


def test_a_customers_orders_by_date_and_their_summary(api: str) -> None:
    status, summary = get(api, "/customers/customer-01")
    assert status == 200
    orders = every_page(api, "/customers/customer-01/orders", limit=5)
    assert len(orders) == summary["OrderCount"]
    assert [o["OrderDate"] for o in orders] == sorted(o["OrderDate"] for o in orders)
    assert {key for o in orders for key in o} == {"OrderId", "CustomerId", "OrderDate", "Status"}
    assert orders[-1]["OrderId"] == summary["LastOrderId"]
    status, first = get(api, "/customers/customer-01/orders", limit=5)
    assert first["stats"] == {**first["stats"], "items_read": 6, "queries": 1}  # 5 + 1 to see a next page


def test_pending_orders_older_than_five_days(api: str) -> None:
    before = (datetime.now(UTC) - timedelta(days=5)).isoformat()
    everything = every_page(api, "/customers/customer-02/orders")
    expected = [o for o in everything if o["Status"] == "PENDING" and o["OrderDate"] < before[:23]]
    status, body = get(api, "/customers/customer-02/orders", status="PENDING", before=before)
    assert status == 200 and expected and body["items"] == expected
    assert body["stats"]["items_read"] == len(expected)  # one BETWEEN on Status#OrderDate: no filtering


def test_orders_by_status_merge_ten_shards_in_date_order(api: str) -> None:
    status, first = get(api, "/orders", status="DELIVERED", limit=10)
    assert status == 200 and first["stats"]["queries"] == 10
    delivered = every_page(api, "/orders", status="DELIVERED", limit=25)
    assert len(delivered) == len({o["OrderId"] for o in delivered}) > 50
    assert [o["OrderDate"] for o in delivered] == sorted(o["OrderDate"] for o in delivered)
    since = delivered[len(delivered) // 2]["OrderDate"]
    recent = every_page(api, "/orders", status="DELIVERED", since=since, limit=25)
    assert recent == [o for o in delivered if o["OrderDate"] >= since]


def test_place_read_and_move_an_order(api: str) -> None:
    placed = requests.post(f"{api}/orders", json={"CustomerId": "http-customer", "Total": 42.5}, timeout=30)
    assert placed.status_code == 201
    order = placed.json()
    assert get(api, f"/orders/{order['OrderId']}") == (200, order)
    assert get(api, "/customers/http-customer")[1]["OrderCount"] == 1
    moved = requests.patch(f"{api}/orders/{order['OrderId']}", json={"Status": "DELIVERED"}, timeout=30)
    assert moved.json() == {**order, "Status": "DELIVERED"}
    again = requests.post(
        f"{api}/orders",
        json={"CustomerId": "http-customer", "Total": 1, "OrderId": order["OrderId"]},
        timeout=30,
    )
    assert again.status_code == 409


def test_businesses_drill_down_read_and_write(api: str) -> None:
    status, usa = get(api, "/businesses", type="CoffeeShop", location="USA")
    assert status == 200
    assert [b["BusinessName"] for b in usa["items"]] == ["Business2", "Seattle Roasters"]
    _, washington = get(api, "/businesses", type="Restaurant", location="USA:Washington")
    assert [b["City"] for b in washington["items"]] == ["Seattle", "Spokane", "Spokane Valley"]
    _, seattle = get(api, "/businesses", type="FitnessCenter", location="USA:Washington:Seattle")
    assert seattle["items"] == [sample.business_data()["seed"][0]]
    assert get(api, "/businesses/business-9")[1]["BusinessName"].startswith("Beans by Mail")
    listing = {
        "BusinessType": "Bakery",
        "BusinessName": "Tatami Bread",
        "Country": "Japan",
        "State": "Tokyo",
        "City": "Chiyoda",
    }
    put = requests.put(f"{api}/businesses/http-bakery", json=listing, timeout=30)
    assert put.status_code == 200 and put.json() == {"BusinessId": "http-bakery", **listing}
    assert get(api, "/businesses", type="Bakery", location="Japan:Tokyo")[1]["items"] == [put.json()]


@pytest.mark.parametrize(
    ("path", "query", "status", "says"),
    [
        ("/orders", {}, 400, "status"),  # API Gateway checks the required query string
        ("/businesses", {}, 400, "type"),
        ("/forums", {"limit": "1001"}, 400, "limit"),
        ("/customers/customer-01/orders", {"next": "forged.token"}, 400, "next"),
        ("/forums/Nope/threads", {}, 404, "Nope"),
        ("/orders/order-9999", {}, 404, "order-9999"),
        ("/customers/nobody/orders", {}, 404, "nobody"),
        ("/businesses/none", {}, 404, "none"),
    ],
)
def test_errors_over_http(api: str, path: str, query: dict[str, str], status: int, says: str) -> None:
    code, body = get(api, path, **query)
    assert code == status and says in body["message"], body


def test_a_token_for_one_customer_is_refused_for_another(api: str) -> None:
    _, page = get(api, "/customers/customer-01/orders", limit=1)
    code, body = get(api, "/customers/customer-03/orders", limit=1, next=page["next"])
    assert code == 400 and body["message"].startswith("next:")
