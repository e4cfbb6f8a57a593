"""Seed 002's Orders on DynamoDB Local: each question is one Query on the index the seed designs.

Placing an order is one transaction (order + customer summary); a customer's orders by date use
CustomerOrders (projection OrderId, OrderDate, Status); "PENDING and older than five days" is one
BETWEEN on CustomerStatusOrders' `Status#OrderDate`; a status across the table is N parallel
Queries of the write-sharded StatusOrders, merged in date order and paginated.
"""

from __future__ import annotations

import random
import uuid
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest

from tatami_functions.common.instants import instant, just_before
from tatami_functions.orders import service
from tatami_functions.orders.exceptions import CustomerNotFoundError, OrderExistsError
from tatami_functions.orders.repository import OrdersRepository
from tatami_functions.orders.schemas import CustomerOrdersQuery, NewOrder, Status, StatusOrdersQuery
from tatami_functions.orders.settings import OrdersTables
from tatami_functions.orders.table import CUSTOMERS, ORDERS
from tests.support.forum_orders import Recorder, create_tables, local_client

NOW = datetime(2024, 6, 1, 12, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _token_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tatami_functions.common.tokens._secret", lambda: b"orders-test-key")


@pytest.fixture
def orders(dynamodb_local: str) -> tuple[OrdersRepository, Recorder]:
    client = local_client(dynamodb_local)
    names = create_tables(client, orders=ORDERS, customers=CUSTOMERS)
    repository = OrdersRepository(OrdersTables(names["orders"], names["customers"], 10), client)
    return repository, Recorder().attach(client)


def _order(customer: str, days_ago: float, status: Status, total: str = "10.00") -> dict[str, Any]:
    return {
        "OrderId": f"o-{uuid.uuid4().hex[:12]}",
        "CustomerId": customer,
        "OrderDate": instant(NOW - timedelta(days=days_ago)),
        "Status": status.value,
        "Total": Decimal(total),
    }


def _place(repository: OrdersRepository, *orders: dict[str, Any]) -> list[dict[str, Any]]:
    rng = random.Random(7)
    return [
        repository.place(order, rng.randint(1, 10)) for order in sorted(orders, key=lambda o: o["OrderDate"])
    ]


def test_placing_an_order_writes_it_and_the_summary_in_one_transaction(orders: tuple[Any, Recorder]) -> None:
    repository, recorder = orders
    first = service.place_order(
        NewOrder(CustomerId="c-1", Total=Decimal("12.50")), now=NOW, repository=repository
    )
    second = service.place_order(
        NewOrder(CustomerId="c-1", Total=Decimal("7.25"), OrderId="o-2"), repository=repository
    )
    assert recorder.operations() == [("TransactWriteItems", None), ("TransactWriteItems", None)]
    assert first["Status"] == "PENDING" and first["OrderDate"] == "2024-06-01T12:00:00.000Z"
    assert set(first) == {"OrderId", "CustomerId", "OrderDate", "Status", "Total"}  # no internal keys
    assert repository.get_customer("c-1") == {
        "CustomerId": "c-1",
        "OrderCount": 2,
        "TotalSpent": 19.75,
        "LastOrderDate": second["OrderDate"],
        "LastOrderId": "o-2",
    }
    with pytest.raises(OrderExistsError):
        service.place_order(
            NewOrder(CustomerId="c-1", Total=Decimal("1"), OrderId="o-2"), repository=repository
        )
    assert repository.get_customer("c-1")["OrderCount"] == 2  # the cancelled transaction wrote nothing


def test_a_customers_orders_by_date_are_one_query_on_customer_orders(orders: tuple[Any, Recorder]) -> None:
    repository, recorder = orders
    placed = _place(repository, *(_order("c-7", days, Status.DELIVERED) for days in (30, 20, 10, 5, 1)))
    _place(repository, _order("someone-else", 3, Status.PENDING))
    recorder.take()
    page = repository.customer_orders(CustomerOrdersQuery("c-7"), 20, None)
    # The seed's projection: OrderId, OrderDate, Status (CustomerId is the index key); no Total.
    assert page.items == [{k: o[k] for k in ("OrderId", "CustomerId", "OrderDate", "Status")} for o in placed]
    (call,) = recorder.take()
    assert (call.operation, call.index, call.scanned, call.count) == ("Query", "CustomerOrders", 5, 5)
    window = CustomerOrdersQuery("c-7", low=placed[1]["OrderDate"], high=placed[3]["OrderDate"])
    assert [o["OrderId"] for o in repository.customer_orders(window, 20, None).items] == [
        o["OrderId"] for o in placed[1:4]
    ]
    (call,) = recorder.take()
    assert (call.index, call.scanned, call.count) == ("CustomerOrders", 3, 3)


def test_pending_older_than_five_days_is_one_between_on_the_composite_sort_key(
    orders: tuple[Any, Recorder],
) -> None:
    repository, recorder = orders
    old_pending = _place(repository, _order("c-9", 12, Status.PENDING), _order("c-9", 6, Status.PENDING))
    _place(
        repository,
        _order("c-9", 2, Status.PENDING),  # pending, but recent
        _order("c-9", 8, Status.DELIVERED),  # old, but delivered
        _order("c-9", 30, Status.ORDERED),
    )
    recorder.take()
    question = CustomerOrdersQuery("c-9", Status.PENDING, high=just_before(NOW - timedelta(days=5)))
    page = repository.customer_orders(question, 20, None)
    assert [o["OrderId"] for o in page.items] == [o["OrderId"] for o in old_pending]
    (call,) = recorder.take()
    # Only the two matching orders were read: no Scan, no filter.
    assert (call.operation, call.index, call.scanned, call.count) == ("Query", "CustomerStatusOrders", 2, 2)
    every_pending = repository.customer_orders(CustomerOrdersQuery("c-9", Status.PENDING), 20, None)
    assert len(every_pending.items) == 3
    assert recorder.take()[0].scanned == 3


def test_an_unknown_customer_is_not_found_and_a_known_one_can_have_an_empty_page(
    orders: tuple[Any, Recorder],
) -> None:
    repository, recorder = orders
    with pytest.raises(CustomerNotFoundError):
        service.customer_orders(CustomerOrdersQuery("nobody"), 20, None, repository=repository)
    assert recorder.operations() == [("Query", "CustomerOrders"), ("GetItem", None)]
    _place(repository, _order("c-3", 1, Status.ORDERED))
    recorder.take()
    body = service.customer_orders(
        CustomerOrdersQuery("c-3", Status.DELIVERED), 20, None, repository=repository
    )
    assert body["items"] == [] and body["next"] is None


def test_a_status_change_moves_the_order_between_composite_and_sharded_keys(
    orders: tuple[Any, Recorder],
) -> None:
    repository, recorder = orders
    (order,) = _place(repository, _order("c-5", 7, Status.PENDING))
    shard_before = repository.client.get_item(
        TableName=repository.tables.orders, Key={"OrderId": {"S": order["OrderId"]}}
    )["Item"]["StatusShard"]["S"]
    recorder.take()
    changed = repository.set_status(order["OrderId"], Status.IN_TRANSIT)
    assert changed == {**order, "Status": "IN_TRANSIT"}
    assert recorder.operations() == [("GetItem", None), ("UpdateItem", None)]
    stored = repository.client.get_item(
        TableName=repository.tables.orders, Key={"OrderId": {"S": order["OrderId"]}}
    )["Item"]
    assert stored["StatusDate"]["S"] == f"IN_TRANSIT#{order['OrderDate']}"
    assert stored["StatusShard"]["S"] == "IN_TRANSIT#" + shard_before.split("#")[1]  # same shard
    assert repository.customer_orders(CustomerOrdersQuery("c-5", Status.PENDING), 20, None).items == []


def test_a_status_is_read_from_ten_shards_in_parallel_merged_by_date_and_paginated(
    orders: tuple[Any, Recorder],
) -> None:
    repository, recorder = orders
    rng = random.Random(11)
    in_transit = [_order(f"c-{rng.randint(1, 5)}", rng.uniform(0, 20), Status.IN_TRANSIT) for _ in range(30)]
    _place(repository, *in_transit, *(_order("c-1", d, Status.DELIVERED) for d in range(1, 6)))
    since = NOW - timedelta(days=15)
    expected = sorted(
        (o for o in in_transit if o["OrderDate"] >= instant(since)), key=lambda o: o["OrderDate"]
    )
    shards_used = {
        item["StatusShard"]["S"]
        for item in repository.client.scan(TableName=repository.tables.orders)["Items"]
        if item["Status"]["S"] == "IN_TRANSIT"
    }
    assert len(shards_used) > 5  # random suffixes 1..10 spread the one status over many partitions
    recorder.take()
    pages, token = [], None
    for _ in range(10):
        body = service.status_orders(
            StatusOrdersQuery(Status.IN_TRANSIT, instant(since)), 7, token, repository=repository
        )
        pages.append(body)
        token = body["next"]
        if token is None:
            break
    got = [item for page in pages for item in page["items"]]
    assert [o["OrderId"] for o in got] == [o["OrderId"] for o in expected]
    assert len(pages) > 2 and [len(p["items"]) for p in pages[:-1]] == [7] * (len(pages) - 1)
    calls = recorder.take()
    assert {(c.operation, c.index) for c in calls} == {("Query", "StatusOrders")}
    assert pages[0]["stats"]["queries"] == 10  # every shard is asked on the first page
    assert all(c.scanned == c.count for c in calls)  # key conditions only: nothing read and dropped
    assert sum(p["stats"]["items_read"] for p in pages) == sum(c.scanned for c in calls)
