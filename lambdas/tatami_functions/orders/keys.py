"""The keys an order's GSIs are keyed on, derived from its Status, OrderDate and shard (pure: no I/O).

The composite and sharded attributes are derived from Status, OrderDate and the order's shard, so
every write that changes Status rewrites them together (see `derived_keys`).
"""

from __future__ import annotations

import random
from typing import Any

from tatami_functions.orders.schemas import Status
from tatami_functions.orders.table import ORDERS_ZINDEX

# internal, never shown to callers: the keys derived here, and the Z index's binary keys that its
# maintainer writes into the order
DERIVED = ("StatusDate", "StatusShard", "Shard", *ORDERS_ZINDEX.written)
SEPARATOR = "#"
# StatusOrders is write-sharded over N shards (`Status#n`, n random in 1..N; seed 002 suggests 1..10).
# The stack sets N (`OrdersTables.shards`); readers query 1..N, so N may grow but must never shrink.
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
