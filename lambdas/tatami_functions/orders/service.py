"""The orders model's questions (seed 002) as plain functions over an `OrdersRepository`.

They stamp new orders, bind page tokens to the question asked (customer, status, bounds), tell an
empty list from an unknown customer, and run the sharded status read on a reusable thread pool.
"""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from functools import cache
from typing import Any

from tatami_functions.common.attribute_values import plain
from tatami_functions.common.instants import instant
from tatami_functions.common.paging import Item, ListPage, cursor_from, scope
from tatami_functions.orders import keys
from tatami_functions.orders.models import CustomerOrdersQuery, NewOrder, Status, StatusOrdersQuery
from tatami_functions.orders.repository import OrdersRepository
from tatami_functions.orders.sharded import ShardPage, merged_page


@cache
def _executor() -> ThreadPoolExecutor:
    # Created once per execution environment; the N shard Queries of a page run side by side.
    return ThreadPoolExecutor(max_workers=keys.MAX_SHARDS, thread_name_prefix="shard")


def place_order(
    repository: OrdersRepository, order: NewOrder, shard: int | None = None, now: datetime | None = None
) -> dict[str, Any]:
    """Place a new order (status PENDING, dated now) on a random shard of the status index.

    >>> place_order(repository, NewOrder(CustomerId="c-1", Total=12.5))["Status"]  # doctest: +SKIP
    'PENDING'
    """
    record = {
        "OrderId": order.OrderId or str(uuid.uuid4()),
        "CustomerId": order.CustomerId,
        "OrderDate": instant(now or datetime.now(UTC)),
        "Status": Status.PENDING.value,
        "Total": order.Total,
    }
    return repository.place(record, shard or keys.random_shard(repository.tables.shards))


def customer_orders(
    repository: OrdersRepository, query: CustomerOrdersQuery, limit: int, token: str | None
) -> dict[str, Any]:
    """A customer's orders (OrderId, OrderDate, Status) by date; 404 if the customer never ordered.

    >>> customer_orders(repository, CustomerOrdersQuery("c-1", Status.PENDING), 20, None)  # doctest: +SKIP
    """
    token_scope = scope(
        "customer-orders",
        customer=query.customer_id,
        status=query.status,
        low=query.low,
        high=query.high,
        descending=query.descending,
    )
    cursor = cursor_from(token, token_scope)
    page = repository.customer_orders(query, limit, cursor)
    if not page.items and cursor is None:
        repository.get_customer(query.customer_id)  # raises CustomerNotFoundError: a 404
    return page.body(token_scope)


def status_orders(
    repository: OrdersRepository, query: StatusOrdersQuery, limit: int, token: str | None
) -> dict[str, Any]:
    """Every order in a status since a date, oldest first, from the N shards of StatusOrders.

    The token is bound to the shard count as well: a cursor over N shards means nothing over M.

    >>> status_orders(repository, StatusOrdersQuery(Status.DELIVERED), 20, None)  # doctest: +SKIP
    """
    shards = repository.tables.shards
    token_scope = scope("status-orders", status=query.status, since=query.since, shards=shards)

    def fetch(shard: int, start: Item | None, size: int) -> ShardPage:
        return repository.status_shard(query.status, query.since, shard, start, size)

    items, cursor, stats = merged_page(
        fetch,
        shards,
        limit,
        cursor_from(token, token_scope),
        _executor(),
        keys.INDEX_KEYS[keys.STATUS_ORDERS],
    )
    return ListPage([plain(item, keys.DERIVED) for item in items], cursor, stats).body(token_scope)
