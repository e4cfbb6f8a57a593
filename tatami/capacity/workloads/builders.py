"""Workloads: what to send, to which key spaces, with which client.

A `Workload` owns its key spaces (the table, then its indexes), the client that sends its requests,
and a readable label for each partition key (for tables and verdicts). Builders here cover the
loads a key list describes (a CSV, the IP loader's plan, seed 003's data set), a sharded counter
and reads; `tatami.capacity.adapters.traffic` builds one from the traffic the local cloud recorded.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from tatami.capacity.model.capacity import Capacity
from tatami.capacity.model.choices import Choices
from tatami.capacity.model.items import read_units
from tatami.capacity.model.keys import key_hash, sort_bytes
from tatami.capacity.model.limits import Limits
from tatami.capacity.model.space import KeySpace
from tatami.capacity.workloads.arrivals import Arrivals
from tatami.capacity.workloads.clients import BATCH_WRITER, AppRetry, BatchLoader, Caller
from tatami.capacity.workloads.sdk import ClientConfig, SdkClient

__all__ = [
    "FILE_ORDER",
    "ORDERS",
    "SHUFFLED",
    "Key",
    "Setting",
    "Sharding",
    "Workload",
    "counter_workload",
    "keys_workload",
    "reads_workload",
]

FILE_ORDER, SHUFFLED = "file", "shuffled"
TABLE = "table"  # the key space's name in workloads of one table
ORDERS = (FILE_ORDER, SHUFFLED)

Key = tuple[str, object]  # (partition key, sort key or None)


@dataclass(frozen=True)
class Sharding:
    """A write-sharded key: `shards` keys share `rate` requests a second (a counter's)."""

    name: str
    shards: int
    rate: float


@dataclass
class Workload:
    name: str
    spaces: list[KeySpace]
    client: Caller
    labels: dict[tuple[str, int], str] = field(default_factory=dict)  # (space, key hash) -> key
    offered: dict[tuple[str, int], float] = field(default_factory=dict)  # units offered per key
    items: int = 0  # the requests it sends (before retries)
    sharding: Sharding | None = None

    def label(self, space: str, hashed: int) -> str:
        return self.labels.get((space, hashed), f"#{hashed:016x}")


@dataclass(frozen=True)
class Setting:
    """Where a workload runs: the table's capacity, the limits, the open choices, the hash seed.

    `lsi`: the table has a local secondary index. `client`: how the application calls DynamoDB.
    """

    capacity: Capacity = field(default_factory=Capacity.on_demand)
    limits: Limits = field(default_factory=Limits)
    seed: int = 0
    choices: Choices = field(default_factory=Choices)
    lsi: bool = False
    client: ClientConfig = field(default_factory=ClientConfig)

    def space(self, name: str, lsi: bool | None = None, index: bool = False) -> KeySpace:
        """A new table (or, `index`, a global secondary index) with this setting's capacity and choices."""
        has_lsi = (self.lsi if lsi is None else lsi) and not index
        return KeySpace(name, self.capacity, self.limits, self.seed, self.choices, has_lsi, index)

    def sdk(self) -> SdkClient:
        return SdkClient(self.client, self.seed)


def keys_workload(
    name: str,
    keys: Sequence[Key],
    setting: Setting,
    item_bytes: int | Sequence[int] = 100,
    order: str = FILE_ORDER,
    writers: int = 1,
    app: AppRetry = BATCH_WRITER,
) -> Workload:
    """Write one item per key, in file order or shuffled, with `writers` batch-writing threads.

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
    loader = BatchLoader(requests, setting.sdk(), writers, app)
    return Workload(name, [table], loader, labels, dict(offered), len(requests))


def counter_workload(name: str, shards: int, rate: float, seconds: float, setting: Setting) -> Workload:
    """`rate` increments a second on `shards` shard keys (`name#0` ...), each on a random shard."""
    from tatami_functions.counters.sharding import shard_key  # the service's own key format

    keys = [shard_key(name, shard) for shard in range(shards)]
    workload = _steady(name, keys, 1.0, 0.0, rate, seconds, setting)
    workload.sharding = Sharding(name, shards, rate)
    return workload


def reads_workload(
    name: str,
    keys: int,
    rate: float,
    seconds: float,
    setting: Setting,
    item_bytes: int = 1000,
    consistent: bool = False,
) -> Workload:
    """`rate` GetItem calls a second for `seconds`, each on one of `keys` items at random.

    Each read costs what AWS charges for an item of `item_bytes`: one unit per 4 KB, half of
    that when eventually consistent (the default, as for GetItem).
    """
    units = read_units(item_bytes, consistent, setting.limits)
    return _steady(name, [f"item-{number}" for number in range(keys)], 0.0, units, rate, seconds, setting)


def _steady(
    name: str, keys: list[str], write: float, read: float, rate: float, seconds: float, setting: Setting
) -> Workload:
    """`rate` requests a second of `write` and `read` units, each on one of `keys` at random."""
    table = setting.space(TABLE)
    hashes = [key_hash(key, setting.seed) for key in keys]
    choices = [(table, hashed, b"", write, read, 0, ()) for hashed in hashes]
    labels = {(TABLE, hashed): key for key, hashed in zip(keys, hashes, strict=True)}
    offered = {label: rate * seconds * (write + read) / len(keys) for label in labels}
    client = Arrivals(choices, rate, seconds, setting.sdk(), setting.seed)
    return Workload(name, [table], client, labels, offered, round(rate * seconds))
