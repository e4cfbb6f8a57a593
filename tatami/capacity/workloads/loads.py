"""Bulk loads: one item per key, written by a loader's threads in file order, shuffled, or as exported.

`keys_workload` builds the table (and, given each item's index key, a global secondary index), the
loader (`clients.BatchLoader`), what the load asks without retries (its pace: `Demand`) and the
shape of its order (`order.LoadShape`), which a verdict reads to tell an ordered load from a hot key.
"""

from __future__ import annotations

import functools
import random
from collections import defaultdict
from collections.abc import Callable, Sequence

from tatami.capacity.model.engine import Request
from tatami.capacity.model.items import write_units
from tatami.capacity.model.keys import key_hash, sort_bytes
from tatami.capacity.model.space import KeySpace
from tatami.capacity.workloads.clients import BATCH, BATCH_WRITER, AppRetry, BatchLoader
from tatami.capacity.workloads.demand import Demand
from tatami.capacity.workloads.order import LoadShape, load_shape
from tatami.capacity.workloads.setting import TABLE, Key, Setting, Workload

__all__ = ["EXPORT", "FILE_ORDER", "GSI", "ORDERS", "SHUFFLED", "EncodedKeys", "keys_workload"]

FILE_ORDER, SHUFFLED, EXPORT = "file", "shuffled", "export"
ORDERS = (FILE_ORDER, SHUFFLED, EXPORT)  # export: partition by partition, as a Scan of the same table reads
GSI = f"{TABLE} gsi"  # the key space of a load's global secondary index


class EncodedKeys(list[tuple[str, bytes]]):
    """Keys whose sort keys are encoded once (`keys.sort_bytes`), for a load run at many hash seeds."""

    @classmethod
    def of(cls, keys: Sequence[Key]) -> EncodedKeys:
        return keys if isinstance(keys, EncodedKeys) else cls((pk, sort_bytes(sk)) for pk, sk in keys)


def keys_workload(
    name: str,
    keys: Sequence[Key],
    setting: Setting,
    item_bytes: int | Sequence[int] = 100,
    order: str = FILE_ORDER,
    writers: int = 1,
    app: AppRetry = BATCH_WRITER,
    gsi_keys: Sequence[str] | None = None,
) -> Workload:
    """Write one item per key, in file order, shuffled or in export order, with `writers` threads.

    `gsi_keys`: each item's partition key in a global secondary index projecting the whole item.

    >>> sorted(keys_workload("demo", [("a", 1), ("b", 2)], Setting()).labels.values())
    ['a', 'b']
    """
    if order not in ORDERS:
        raise ValueError(f"order {order!r} must be one of {', '.join(ORDERS)}")
    table, encoded = setting.space(TABLE), EncodedKeys.of(keys)
    index = setting.space(GSI, index=True) if gsi_keys is not None else None
    sizes = [item_bytes] * len(encoded) if isinstance(item_bytes, int) else list(item_bytes)
    units = functools.cache(lambda size: float(write_units(size, setting.limits)))
    hashes = {pk: key_hash(pk, setting.seed) for pk in {pk for pk, _ in encoded}}
    indexed = _index_writes(index, gsi_keys, sizes, units, setting.seed)
    requests = [
        (table, hashes[pk], sk, units(size), 0.0, size, gsi)
        for (pk, sk), size, gsi in zip(encoded, sizes, indexed, strict=True)
    ]
    offered: defaultdict[tuple[str, int], float] = defaultdict(float)
    for request in requests:
        offered[TABLE, request[1]] += request[3]
        for space, hashed, _, cost in request[6]:
            offered[space.name, hashed] += cost
    _order(requests, order, setting.seed)
    labels = {(TABLE, hashed): pk for pk, hashed in hashes.items()}
    if index is not None and gsi_keys is not None:
        labels.update({(GSI, key_hash(key, setting.seed)): key for key in set(gsi_keys)})
    sdk = setting.sdk()
    loader = BatchLoader(requests, sdk, writers, app)
    pace = writers * BATCH / sdk.latency
    workload = Workload(
        name, [table] + ([index] if index else []), loader, labels, dict(offered), len(requests)
    )
    workload.demand = _demand(requests, pace, index)
    workload.shape = _shape(table, requests, pace)
    workload.item_bytes = sum(sizes) / max(1, len(sizes))
    return workload


def _index_writes(
    index: KeySpace | None,
    gsi_keys: Sequence[str] | None,
    sizes: list[int],
    units: Callable[[int], float],
    seed: int,
) -> list[tuple[Request, ...]]:
    """Each item's index write (none without an index): the index key's hash, the item's write units."""
    if index is None or gsi_keys is None:
        return [()] * len(sizes)
    if len(gsi_keys) != len(sizes):
        raise ValueError(f"{len(gsi_keys)} index keys for {len(sizes)} items: give one per item")
    hashes = {key: key_hash(key, seed) for key in set(gsi_keys)}
    return [  # each item is an item of its own in the index too (its row number orders it there)
        ((index, hashes[key], row.to_bytes(8, "big"), units(size)),)
        for row, (key, size) in enumerate(zip(gsi_keys, sizes, strict=True))
    ]


def _order(requests: list[Request], order: str, seed: int) -> None:
    if order == SHUFFLED:
        random.Random(seed).shuffle(requests)
    elif order == EXPORT:  # a Scan reads partition by partition: by key hash, then sort key
        requests.sort(key=lambda request: (request[1], request[2]))


def _demand(requests: list[Request], pace: float, index: KeySpace | None) -> Demand:
    """A loader's demand: its pace (its threads' calls back to back) until every item is sent."""
    full, rest = divmod(len(requests), pace)
    per_second = [pace] * int(full) + ([rest] if rest else [])
    demand, count = Demand(), max(1, len(requests))
    demand.add(TABLE, per_second, sum(request[3] for request in requests) / count, 0.0)
    if index is not None:
        index_units = sum(write[3] for request in requests for write in request[6])
        demand.add(index.name, per_second, index_units / count, 0.0)
    return demand


def _shape(table: KeySpace, requests: list[Request], pace: float) -> LoadShape:
    """Where each item lands among the table's starting partitions, in the order it is sent."""
    numbers = {part.pid: number for number, part in enumerate(table.partitions)}
    part_of = {
        hashed: numbers[table.locate(hashed, b"").pid] for hashed in {request[1] for request in requests}
    }
    parts = [part_of[request[1]] for request in requests]
    costs = [float(request[3]) for request in requests]
    unit: float | list[float] = costs[0] if costs and costs.count(costs[0]) == len(costs) else costs
    return load_shape(parts, unit, len(table.partitions), pace)
