"""The orders routes through their resolver on moto: bad input is a 400 naming the field, conflicts and
unknown ids, page tokens bound to their query, the Z-order search (reads are proven on DynamoDB Local)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import boto3
import pytest

from tatami_functions.orders.table import ORDERS_ZINDEX
from tests.support import forum_orders_moto
from tests.support.forum_orders_moto import assert_400, call, token_for

aws = forum_orders_moto.aws  # the module's moto and tables (autouse)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "CustomerId"),
        ({"CustomerId": "c-1"}, "Total"),
        ({"CustomerId": "c#1", "Total": 1}, "CustomerId"),
        ({"CustomerId": "c-1", "Total": -1}, "Total"),
        ({"CustomerId": "c-1", "Total": 1.234}, "Total"),
        ({"CustomerId": "c-1", "Total": "lots"}, "Total"),
        ({"CustomerId": "c-1", "Total": 1, "OrderId": "x" * 37}, "OrderId"),
        ({"CustomerId": "c-1", "Total": 1, "Status": "DELIVERED"}, "Status"),
        ("{not json", "body"),
    ],
)
def test_placing_an_order_validates_the_body(body: Any, field: str) -> None:
    assert_400(call("orders", "POST", "/orders", body=body), field)


@pytest.mark.parametrize(
    ("method", "path", "query", "body", "field"),
    [
        ("GET", "/orders/a%23b", None, None, "id"),
        ("PATCH", "/orders/o-1", None, {"Status": "LOST"}, "Status"),
        ("PATCH", "/orders/o-1", None, {}, "Status"),
        ("GET", "/orders", None, None, "status"),
        ("GET", "/orders", {"status": "LOST"}, None, "status"),
        ("GET", "/orders", {"status": "PENDING", "since": "last week"}, None, "since"),
        ("GET", "/customers/c-1/orders", {"status": "pending"}, None, "status"),
        ("GET", "/customers/c-1/orders", {"to": "2024-01-01", "before": "2024-01-01"}, None, "before"),
        ("GET", "/customers/c-1/orders", {"from": "2024-02-01", "before": "2024-01-01"}, None, "from"),
        ("GET", "/customers/c-1/orders", {"limit": "-5"}, None, "limit"),
        ("GET", "/customers/%20/orders", None, None, "id"),
        ("GET", "/orders/search", {"total_min": "10", "total_max": "5"}, None, "total_min"),
        ("GET", "/orders/search", {"total_min": "-1"}, None, "total_min"),
        ("GET", "/orders/search", {"from": "2024-02-01", "to": "2024-01-01"}, None, "from"),
        ("GET", "/orders/search", {"status": "LOST"}, None, "status"),
        ("GET", "/orders/search", {"to": "0502-09-29T14:43:56.52Z"}, None, "to"),  # before Timestamp(44)
        ("GET", "/orders/search", {"from": "2300-01-01"}, None, "from"),  # after it
        ("GET", "/orders/search", {"limit": "1001"}, None, "limit"),
        ("GET", "/orders/search", {"next": "forged"}, None, "next"),
    ],
)
def test_order_routes_refuse_bad_input(
    method: str, path: str, query: dict[str, str] | None, body: Any, field: str
) -> None:
    assert_400(call("orders", method, path, query, body), field)


def test_orders_place_conflict_and_not_found() -> None:
    status, order = call(
        "orders", "POST", "/orders", body={"CustomerId": "c-1", "Total": 12.5, "OrderId": "o-1"}
    )
    assert status == 201 and order["Status"] == "PENDING" and order["Total"] == 12.5
    status, body = call("orders", "POST", "/orders", body={"CustomerId": "c-1", "Total": 3, "OrderId": "o-1"})
    assert status == 409 and "already placed" in body["message"]
    assert call("orders", "GET", "/customers/c-1")[1]["OrderCount"] == 1
    assert call("orders", "PATCH", "/orders/o-1", body={"Status": "ORDERED"})[1]["Status"] == "ORDERED"
    for method, path, body in [
        ("GET", "/orders/o-404", None),
        ("PATCH", "/orders/o-404", {"Status": "DELIVERED"}),
        ("GET", "/customers/nobody", None),
        ("GET", "/customers/nobody/orders", None),
    ]:
        assert call("orders", method, path, body=body)[0] == 404, path


def test_a_page_token_only_works_for_the_query_that_issued_it() -> None:
    for n in range(3):
        call("orders", "POST", "/orders", body={"CustomerId": "alice", "Total": n})
    call("orders", "POST", "/orders", body={"CustomerId": "bob", "Total": 1})
    alices = token_for("orders", "/customers/alice/orders", {})
    assert call("orders", "GET", "/customers/alice/orders", {"next": alices})[0] == 200
    assert_400(call("orders", "GET", "/customers/bob/orders", {"next": alices}), "next")
    assert_400(
        call("orders", "GET", "/customers/alice/orders", {"next": alices, "status": "PENDING"}), "next"
    )
    payload, mac = alices.split(".")
    forged = payload[:-2] + ("AA" if payload[-2:] != "AA" else "BB") + "." + mac
    assert_400(call("orders", "GET", "/customers/alice/orders", {"next": forged}), "next")
    pending = token_for("orders", "/orders", {"status": "PENDING"})
    assert_400(call("orders", "GET", "/orders", {"status": "DELIVERED", "next": pending}), "next")


def test_orders_search_finds_by_date_total_and_status_with_its_plan() -> None:
    from tests.support.zindex import write_indexed

    declaration = ORDERS_ZINDEX.named("orders_table_name")
    orders = [
        {
            "OrderId": f"s-{n}",
            "CustomerId": "carol",
            "OrderDate": f"2024-03-{n + 1:02d}T10:00:00.000Z",
            "Status": "DELIVERED" if n % 2 else "PENDING",
            "Total": n * 10,
        }
        for n in range(20)
    ]
    write_indexed(boto3.client("dynamodb"), declaration, orders)
    query = {
        "from": "2024-03-05",
        "to": "2024-03-15T23:59:59Z",
        "status": "DELIVERED",
        "total_min": "50",
        "explain": "true",
    }
    status, body = call("orders", "GET", "/orders/search", query)
    assert status == 200, body
    expected = {f"s-{n}" for n in range(4, 15) if n % 2 and n * 10 >= 50}
    assert {i["OrderId"] for i in body["items"]} == expected and body["next"] is None
    assert set(body["items"][0]) == {"OrderId", "CustomerId", "OrderDate", "Status", "Total"}
    assert body["stats"]["plan"] and [row["chosen"] for row in body["plan"]].count(True) == 1


@pytest.mark.parametrize(("spelled", "stored"), [("1E+9", 1_000_000_000), ("0E-100", 0), ("12.5", 12.5)])
def test_a_total_in_exponent_form_is_placed_and_read_back(spelled: str, stored: float) -> None:
    order_id = f"exp-{spelled.replace('+', 'p').replace('-', 'm').replace('.', 'd')}"
    status, placed = call(
        "orders", "POST", "/orders", body={"CustomerId": "c-1", "Total": spelled, "OrderId": order_id}
    )
    assert status == 201, placed  # "0E-100" failed the transaction before (fuzzing found it)
    assert call("orders", "GET", f"/orders/{order_id}") == (200, placed) and placed["Total"] == stored


def test_an_indexed_order_reads_and_changes_without_its_index_keys() -> None:
    """The maintainer adds binary Z-index keys to the order; GET and PATCH answer without them
    (they were a 502: fuzzing found it)."""
    from zindex.dynamodb import IndexRepository
    from zindex.keys import index_keys

    status, placed = call(
        "orders", "POST", "/orders", body={"CustomerId": "c-1", "Total": 42, "OrderId": "zk-1"}
    )
    assert status == 201, placed
    declaration = ORDERS_ZINDEX.named("orders_table_name")
    image = {**placed, "Total": Decimal(str(placed["Total"]))}
    written = index_keys(declaration, image)
    assert any(isinstance(v, bytes) for v in written.values())
    IndexRepository(declaration, boto3.client("dynamodb")).write_index_keys(
        {"OrderId": "zk-1"}, written, image
    )
    assert call("orders", "GET", "/orders/zk-1") == (200, placed)
    status, changed = call("orders", "PATCH", "/orders/zk-1", body={"Status": "ORDERED"})
    assert status == 200 and changed == {**placed, "Status": "ORDERED"}
