"""Key names and key conditions of the Orders table and its three GSIs (pure: no I/O).

The composite and sharded attributes are derived from Status, OrderDate and the order's shard, so
every write that changes Status rewrites them together (see `derived_keys`).
"""

from __future__ import annotations

import random
from typing import Any

from tatami_functions.common.repository import range_condition
from tatami_functions.orders.models import CustomerOrdersQuery, Status
from tatami_functions.orders.search import ORDERS

CUSTOMER_ORDERS = "CustomerOrders"  # CustomerId + OrderDate, INCLUDE Status
CUSTOMER_STATUS_ORDERS = "CustomerStatusOrders"  # CustomerId + StatusDate (`Status#OrderDate`)
STATUS_ORDERS = "StatusOrders"  # StatusShard (`Status#n`) + OrderDate
INDEX_KEYS = {
    CUSTOMER_ORDERS: ("CustomerId", "OrderDate", "OrderId"),
    CUSTOMER_STATUS_ORDERS: ("CustomerId", "StatusDate", "OrderId"),
    STATUS_ORDERS: ("StatusShard", "OrderDate", "OrderId"),
}
# internal, never shown to callers: the keys derived here, and the Z index's binary keys that its
# maintainer writes into the order
DERIVED = ("StatusDate", "StatusShard", "Shard", *ORDERS.written)
SEPARATOR = "#"
# StatusOrders is write-sharded over N shards (`Status#n`, n random in 1..N; seed 002 suggests 1..10).
# The stack sets N (ORDER_STATUS_SHARDS); readers query 1..N, so N may grow but must never shrink.
DEFAULT_SHARDS = 10  # what the stack deploys unless told otherwise
MAX_SHARDS = 32  # a read runs one Query per shard, side by side


def status_date(status: Status, order_date: str) -> str:
    """The composite sort key of CustomerStatusOrders.

    >>> status_date(Status.PENDING, "2024-05-01T10:00:00.000Z")
    'PENDING#2024-05-01T10:00:00.000Z'
    """
    return f"{status.value}{SEPARATOR}{order_date}"


def status_shard(status: Status, shard: int) -> str:
    """The write-sharded partition key of StatusOrders.

    >>> status_shard(Status.DELIVERED, 7)
    'DELIVERED#7'
    """
    return f"{status.value}{SEPARATOR}{shard}"


def random_shard(shards: int, rng: random.Random | None = None) -> int:
    """A shard in 1..shards, uniformly (seed 002: a random suffix 1..10 on a low-cardinality key).

    >>> 1 <= random_shard(10) <= 10
    True
    """
    return (rng or random).randint(1, shards)


def derived_keys(status: Status, order_date: str, shard: int) -> dict[str, Any]:
    """The attributes the GSIs key on, for an order in `status` (plain values).

    >>> derived_keys(Status.PENDING, "2024-05-01T10:00:00.000Z", 3)["StatusShard"]
    'PENDING#3'
    """
    return {
        "StatusDate": status_date(status, order_date),
        "StatusShard": status_shard(status, shard),
        "Shard": shard,
    }


def customer_condition(query: CustomerOrdersQuery) -> tuple[str, str, dict[str, Any]]:
    """(index, KeyConditionExpression, values) answering a customer-orders question with one Query.

    Without a status: CustomerOrders, a range on OrderDate. With one: CustomerStatusOrders, whose
    `Status#OrderDate` sort key turns "PENDING and older than D" into one BETWEEN.

    >>> customer_condition(CustomerOrdersQuery("c1", Status.PENDING))[1]
    'CustomerId = :customer AND begins_with(StatusDate, :prefix)'
    """
    values: dict[str, Any] = {":customer": {"S": query.customer_id}}
    if query.status is None:
        condition, bounds = range_condition("OrderDate", query.low, query.high)
        expression = " AND ".join(filter(None, ["CustomerId = :customer", condition]))
        return CUSTOMER_ORDERS, expression, values | bounds
    prefix = f"{query.status.value}{SEPARATOR}"
    if query.low is None and query.high is None:
        values[":prefix"] = {"S": prefix}
        return CUSTOMER_STATUS_ORDERS, "CustomerId = :customer AND begins_with(StatusDate, :prefix)", values
    # '$' is the character after '#': `STATUS$` sorts after every `STATUS#<date>` and before any
    # other status, so it closes an open upper bound exactly.
    values[":low"] = {"S": prefix + (query.low or "")}
    values[":high"] = {"S": prefix + query.high if query.high else f"{query.status.value}$"}
    return CUSTOMER_STATUS_ORDERS, "CustomerId = :customer AND StatusDate BETWEEN :low AND :high", values


def shard_condition(status: Status, shard: int, since: str | None) -> tuple[str, dict[str, Any]]:
    """KeyConditionExpression and values of one shard of StatusOrders.

    >>> shard_condition(Status.ORDERED, 2, None)
    ('StatusShard = :shard', {':shard': {'S': 'ORDERED#2'}})
    """
    condition, bounds = range_condition("OrderDate", since, None)
    values = {":shard": {"S": status_shard(status, shard)}} | bounds
    return " AND ".join(filter(None, ["StatusShard = :shard", condition])), values
