"""Workloads: what to send, to which key spaces, with which client.

A `Workload` owns its key spaces (the table, then its indexes), the client that sends its requests,
and a readable label for each partition key (for tables and verdicts). Builders here cover the
loads a key list describes (a CSV, the IP loader's plan, seed 003's data set) and a sharded
counter; `tatami.capacity.adapters.traffic` builds one from the traffic the local cloud recorded.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from tatami.capacity.model.capacity import Capacity
from tatami.capacity.model.engine import Client
from tatami.capacity.model.keys import key_hash, sort_bytes
from tatami.capacity.model.limits import Limits
from tatami.capacity.model.space import KeySpace
from tatami.capacity.workloads.clients import Arrivals, Loader

__all__ = ["FILE_ORDER", "ORDERS", "SHUFFLED", "Workload", "counter_workload", "keys_workload"]

FILE_ORDER, SHUFFLED = "file", "shuffled"
TABLE = "table"  # the key space's name in workloads of one table
ORDERS = (FILE_ORDER, SHUFFLED)

Key = tuple[str, object]  # (partition key, sort key or None)


@dataclass
class Workload:
    name: str
    spaces: list[KeySpace]
    client: Client
    labels: dict[tuple[str, int], str] = field(default_factory=dict)  # (space, key hash) -> key
    offered: dict[tuple[str, int], float] = field(default_factory=dict)  # units offered per key

    def label(self, space: str, hashed: int) -> str:
        return self.labels.get((space, hashed), f"#{hashed:016x}")


@dataclass(frozen=True)
class Setting:
    """Where a workload runs: the table's capacity, the limits, the hash seed."""

    capacity: Capacity = field(default_factory=Capacity.on_demand)
    limits: Limits = field(default_factory=Limits)
    seed: int = 0

    def space(self, name: str) -> KeySpace:
        return KeySpace(name, self.capacity, self.limits, self.seed)


def keys_workload(
    name: str,
    keys: Sequence[Key],
    setting: Setting,
    item_bytes: int | Sequence[int] = 100,
    order: str = FILE_ORDER,
    writers: int = 1,
) -> Workload:
    """Write one item per key, in file order or shuffled, with `writers` batch writers.

    >>> sorted(keys_workload("demo", [("a", 1), ("b", 2)], Setting()).labels.values())
    ['a', 'b']
    """
    if order not in ORDERS:
        raise ValueError(f"order {order!r} must be one of {', '.join(ORDERS)}")
    table = setting.space(TABLE)
    sizes = [item_bytes] * len(keys) if isinstance(item_bytes, int) else list(item_bytes)
    hashes = {pk: key_hash(pk, setting.seed) for pk in {pk for pk, _ in keys}}
    unit = setting.limits.write_unit_bytes
    requests = [
        (table, hashes[pk], sort_bytes(sk), float(-(-size // unit)), 0.0, size, ())
        for (pk, sk), size in zip(keys, sizes, strict=True)
    ]
    offered: defaultdict[tuple[str, int], float] = defaultdict(float)
    for request in requests:
        offered[TABLE, request[1]] += request[3]
    if order == SHUFFLED:
        random.Random(setting.seed).shuffle(requests)
    labels = {(TABLE, hashed): pk for pk, hashed in hashes.items()}
    return Workload(name, [table], Loader(requests, writers=writers), labels, dict(offered))


def counter_workload(name: str, shards: int, rate: float, seconds: float, setting: Setting) -> Workload:
    """`rate` increments a second on `shards` shard keys (`name#0` ...), each on a random shard."""
    from tatami_functions.counters.sharding import shard_key  # the service's own key format

    table = setting.space(TABLE)
    choices, labels = [], {}
    for shard in range(shards):
        hashed = key_hash(shard_key(name, shard), setting.seed)
        labels[TABLE, hashed] = shard_key(name, shard)
        choices.append((table, hashed, b"", 1.0, 0.0, 0, ()))
    offered = {key: rate * seconds / shards for key in labels}
    return Workload(name, [table], Arrivals(choices, rate, seconds, setting.seed), labels, offered)
