"""The orders model's questions (seed 002): place an order, read it, change its status, a customer's
summary and orders, the orders in a status, and the search by date, total and status at once.

They stamp new orders, bind page tokens to the question asked (customer, status, bounds), tell an
empty list from an unknown customer, and run the sharded status read on a reusable thread pool.
Each takes the repository to use, the function's own (`repository()`) when not given.
"""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from decimal import Decimal
from functools import cache
from typing import Any

from tatami_functions.common import writes
from tatami_functions.common.attribute_values import plain
from tatami_functions.common.instants import instant
from tatami_functions.common.paging import Item, ListPage, cursor_from, page_body, scope
from tatami_functions.orders import keys
from tatami_functions.orders import repository as storage
from tatami_functions.orders.repository import INDEX_KEYS, OrdersRepository
from tatami_functions.orders.schemas import CustomerOrdersQuery, NewOrder, Status, StatusOrdersQuery
from tatami_functions.orders.sharded import ShardPage, merged_page
from tatami_functions.orders.table import STATUS_ORDERS

UNNAMED_RESEND = (
    "it may have applied: sending it again without its OrderId may place a second order; "
    "name the OrderId to make sending it again safe (a 409 then means it was placed)"
)


@cache
def _executor() -> ThreadPoolExecutor:
    # Created once per execution environment; the N shard Queries of a page run side by side.
    return ThreadPoolExecutor(max_workers=keys.MAX_SHARDS, thread_name_prefix="shard")


def _tables(repository: OrdersRepository | None) -> OrdersRepository:
    return repository or storage.repository()


def place_order(
    order: NewOrder,
    shard: int | None = None,
    now: datetime | None = None,
    repository: OrdersRepository | None = None,
) -> dict[str, Any]:
    """Place a new order (status PENDING, dated now) on a random shard of the status index.

    For example (not run as a doctest)::

        place_order(NewOrder(CustomerId="c-1", Total=12.5))["Status"]
        # -> 'PENDING'
    """
    tables = _tables(repository)
    if order.OrderId is None:  # a resend gets a new id: what its 503 must warn of
        writes.resending_is_unsafe(UNNAMED_RESEND)
    record = {
        "OrderId": order.OrderId or str(uuid.uuid4()),
        "CustomerId": order.CustomerId,
        "OrderDate": instant(now or datetime.now(UTC)),
        "Status": Status.PENDING.value,
        "Total": order.Total,
    }
    return tables.place(record, shard or keys.random_shard(tables.tables.shards))


def order(order_id: str, repository: OrdersRepository | None = None) -> dict[str, Any]:
    """One order; OrderNotFoundError (a 404) if there is none."""
    return _tables(repository).get_order(order_id)


def change_status(
    order_id: str, status: Status, repository: OrdersRepository | None = None
) -> dict[str, Any]:
    """Move an order to `status` (its derived index keys with it); the order as it is now."""
    return _tables(repository).set_status(order_id, status)


def customer(customer_id: str, repository: OrdersRepository | None = None) -> dict[str, Any]:
    """A customer's summary (order count, total spent, last order); a 404 before their first order."""
    return _tables(repository).get_customer(customer_id)


def customer_orders(
    query: CustomerOrdersQuery, limit: int, token: str | None, repository: OrdersRepository | None = None
) -> dict[str, Any]:
    """A customer's orders (OrderId, OrderDate, Status) by date; 404 if the customer never ordered.

    For example (not run as a doctest)::

        customer_orders(CustomerOrdersQuery("c-1", Status.PENDING), 20, None)
    """
    tables = _tables(repository)
    token_scope = scope(
        "orders.by-customer",
        customer=query.customer_id,
        status=query.status,
        low=query.low,
        high=query.high,
        descending=query.descending,
    )
    cursor = cursor_from(token, token_scope)
    page = tables.customer_orders(query, limit, cursor)
    if not page.items and cursor is None:
        tables.get_customer(query.customer_id)  # raises CustomerNotFoundError: a 404
    return page.body(token_scope)


def status_orders(
    query: StatusOrdersQuery, limit: int, token: str | None, repository: OrdersRepository | None = None
) -> dict[str, Any]:
    """Every order in a status since a date, oldest first, from the N shards of StatusOrders.

    The token is bound to the shard count as well: a cursor over N shards means nothing over M.

    For example (not run as a doctest)::

        status_orders(StatusOrdersQuery(Status.DELIVERED), 20, None)
    """
    tables = _tables(repository)
    shards = tables.tables.shards
    token_scope = scope("orders.by-status", status=query.status, since=query.since, shards=shards)

    def fetch(shard: int, start: Item | None, size: int) -> ShardPage:
        return tables.status_shard(query.status, query.since, shard, start, size)

    items, cursor, stats = merged_page(
        fetch,
        shards,
        limit,
        cursor_from(token, token_scope),
        _executor(),
        INDEX_KEYS[STATUS_ORDERS.name],
    )
    return ListPage([plain(item, keys.DERIVED) for item in items], cursor, stats).body(token_scope)


def search(
    dates: tuple[str | None, str | None],
    totals: tuple[Decimal | None, Decimal | None],
    status: Status | None,
    limit: int,
    token: str | None,
    with_plan: bool,
    repository: OrdersRepository | None = None,
) -> dict[str, Any]:
    """Orders within inclusive bounds of OrderDate, Total and Status at once (any may be open), one page
    through the Z-index engine, with what it read and the plan chosen (every candidate `with_plan`)."""
    bounds = {
        "OrderDate": dates,
        "Total": totals,
        "Status": (status.value, status.value) if status else (None, None),
    }
    token_scope = scope("orders.search", **bounds)
    page = _tables(repository).search(bounds, limit, cursor_from(token, token_scope), with_plan)
    return page_body(page.items, page.cursor, token_scope, **page.details())
