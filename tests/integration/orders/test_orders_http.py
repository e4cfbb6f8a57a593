"""The orders routes over real HTTP on the app's local cloud, with the `make run` sample data: each test
asks the API what seed 002 asks and checks the answer and what it cost (`stats`)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import requests

from tests.support.forum_orders import get


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


def test_a_customers_orders_by_date_and_their_summary(forum_orders_api: str) -> None:
    status, summary = get(forum_orders_api, "/customers/customer-01")
    assert status == 200
    orders = every_page(forum_orders_api, "/customers/customer-01/orders", limit=5)
    assert len(orders) == summary["OrderCount"]
    assert [o["OrderDate"] for o in orders] == sorted(o["OrderDate"] for o in orders)
    assert {key for o in orders for key in o} == {"OrderId", "CustomerId", "OrderDate", "Status"}
    assert orders[-1]["OrderId"] == summary["LastOrderId"]
    status, first = get(forum_orders_api, "/customers/customer-01/orders", limit=5)
    assert first["stats"] == {**first["stats"], "items_read": 6, "queries": 1}  # 5 + 1 to see a next page


def test_pending_orders_older_than_five_days(forum_orders_api: str) -> None:
    before = (datetime.now(UTC) - timedelta(days=5)).isoformat()
    everything = every_page(forum_orders_api, "/customers/customer-02/orders")
    expected = [o for o in everything if o["Status"] == "PENDING" and o["OrderDate"] < before[:23]]
    status, body = get(forum_orders_api, "/customers/customer-02/orders", status="PENDING", before=before)
    assert status == 200 and expected and body["items"] == expected
    assert body["stats"]["items_read"] == len(expected)  # one BETWEEN on Status#OrderDate: no filtering


def test_orders_by_status_merge_ten_shards_in_date_order(forum_orders_api: str) -> None:
    status, first = get(forum_orders_api, "/orders", status="DELIVERED", limit=10)
    assert status == 200 and first["stats"]["queries"] == 10
    delivered = every_page(forum_orders_api, "/orders", status="DELIVERED", limit=25)
    assert len(delivered) == len({o["OrderId"] for o in delivered}) > 50
    assert [o["OrderDate"] for o in delivered] == sorted(o["OrderDate"] for o in delivered)
    since = delivered[len(delivered) // 2]["OrderDate"]
    recent = every_page(forum_orders_api, "/orders", status="DELIVERED", since=since, limit=25)
    assert recent == [o for o in delivered if o["OrderDate"] >= since]


def test_place_read_and_move_an_order(forum_orders_api: str) -> None:
    placed = requests.post(
        f"{forum_orders_api}/orders", json={"CustomerId": "http-customer", "Total": 42.5}, timeout=30
    )
    assert placed.status_code == 201
    order = placed.json()
    assert get(forum_orders_api, f"/orders/{order['OrderId']}") == (200, order)
    assert get(forum_orders_api, "/customers/http-customer")[1]["OrderCount"] == 1
    moved = requests.patch(
        f"{forum_orders_api}/orders/{order['OrderId']}", json={"Status": "DELIVERED"}, timeout=30
    )
    assert moved.json() == {**order, "Status": "DELIVERED"}
    again = requests.post(
        f"{forum_orders_api}/orders",
        json={"CustomerId": "http-customer", "Total": 1, "OrderId": order["OrderId"]},
        timeout=30,
    )
    assert again.status_code == 409


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
def test_errors_over_http(
    forum_orders_api: str, path: str, query: dict[str, str], status: int, says: str
) -> None:
    code, body = get(forum_orders_api, path, **query)
    assert code == status and says in body["message"], body


def test_a_token_for_one_customer_is_refused_for_another(forum_orders_api: str) -> None:
    _, page = get(forum_orders_api, "/customers/customer-01/orders", limit=1)
    code, body = get(forum_orders_api, "/customers/customer-03/orders", limit=1, next=page["next"])
    assert code == 400 and body["message"].startswith("next:")
