"""Bulk loads: one item per key, written by a loader's threads in file order, shuffled, or as exported.

`keys_workload` builds the table (and, given each item's index key, a global secondary index), the
loader (`clients.BatchLoader`), what the load asks without retries (its pace: `Demand`) and the
shape of its order (`order.LoadShape`), which a verdict reads to tell an ordered load from a hot key.
"""

from __future__ import annotations

import functools
import random
import statistics
from collections import Counter
from collections.abc import Sequence
from operator import itemgetter

from tatami.capacity.model.engine import Request, no_cycle_collection
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
    with no_cycle_collection():  # a million requests are a million objects, and no cycle among them
        return _keys_workload(name, keys, setting, item_bytes, order, writers, app, gsi_keys)


def _keys_workload(
    name: str,
    keys: Sequence[Key],
    setting: Setting,
    item_bytes: int | Sequence[int],
    order: str,
    writers: int,
    app: AppRetry,
    gsi_keys: Sequence[str] | None,
) -> Workload:
    table, encoded = setting.space(TABLE), EncodedKeys.of(keys)
    hashes = {pk: key_hash(pk, setting.seed) for pk in set(map(itemgetter(0), encoded))}
    requests, units = _requests(table, encoded, hashes, item_bytes, setting)
    offered = _offered(TABLE, requests, units)
    labels = {(TABLE, hashed): pk for pk, hashed in hashes.items()}
    index = setting.space(GSI, index=True) if gsi_keys is not None else None
    if index is not None and gsi_keys is not None:
        requests = _with_index(requests, index, gsi_keys, setting.seed)
        offered.update(_offered(GSI, [write for request in requests for write in request[6]], units))
        labels.update({(GSI, key_hash(key, setting.seed)): key for key in set(gsi_keys)})
    _order(requests, order, setting.seed)
    sdk = setting.sdk()
    loader = BatchLoader(requests, sdk, writers, app)
    pace = writers * BATCH / sdk.latency
    workload = Workload(name, [table] + ([index] if index else []), loader, labels, offered, len(requests))
    workload.demand = _demand(len(requests), units, pace, index)
    workload.shape = _shape(table, requests, units, pace)
    workload.item_bytes = float(item_bytes) if isinstance(item_bytes, int) else statistics.fmean(item_bytes)
    return workload


def _requests(
    table: KeySpace,
    encoded: EncodedKeys,
    hashes: dict[str, int],
    item_bytes: int | Sequence[int],
    setting: Setting,
) -> tuple[list[Request], float | list[float]]:
    """One write per key, and its units (one figure when every item has one size: the common, fast case)."""
    if isinstance(item_bytes, int):
        cost = float(write_units(item_bytes, setting.limits))
        return [(table, hashes[pk], sk, cost, 0.0, item_bytes, ()) for pk, sk in encoded], cost
    if len(item_bytes) != len(encoded):
        raise ValueError(f"{len(item_bytes)} item sizes for {len(encoded)} keys: give one per key")
    units = functools.cache(lambda size: float(write_units(size, setting.limits)))
    costs = [units(size) for size in item_bytes]
    return [
        (table, hashes[pk], sk, cost, 0.0, size, ())
        for (pk, sk), size, cost in zip(encoded, item_bytes, costs, strict=True)
    ], costs


def _offered(
    space: str, writes: Sequence[Request], units: float | list[float]
) -> dict[tuple[str, int], float]:
    """Write units offered per key of `space` (a write's key hash is its second field)."""
    if isinstance(units, float):
        return {
            (space, hashed): count * units for hashed, count in Counter(map(itemgetter(1), writes)).items()
        }
    offered: dict[tuple[str, int], float] = {}
    for write, cost in zip(writes, units, strict=True):
        offered[space, write[1]] = offered.get((space, write[1]), 0.0) + cost
    return offered


def _with_index(
    requests: list[Request], index: KeySpace, gsi_keys: Sequence[str], seed: int
) -> list[Request]:
    """Each write with its index write: the index key's hash, the item (its row orders it), its units."""
    if len(gsi_keys) != len(requests):
        raise ValueError(f"{len(gsi_keys)} index keys for {len(requests)} items: give one per item")
    hashes = {key: key_hash(key, seed) for key in set(gsi_keys)}
    return [
        (*request[:6], ((index, hashes[key], row.to_bytes(8, "big"), request[3]),))
        for row, (request, key) in enumerate(zip(requests, gsi_keys, strict=True))
    ]


def _order(requests: list[Request], order: str, seed: int) -> None:
    if order == SHUFFLED:
        random.Random(seed).shuffle(requests)
    elif order == EXPORT:  # a Scan reads partition by partition: by key hash, then sort key
        requests.sort(key=lambda request: (request[1], request[2]))


def _demand(items: int, units: float | list[float], pace: float, index: KeySpace | None) -> Demand:
    """A loader's demand: its pace (its threads' calls back to back) until every item is sent."""
    full, rest = divmod(items, pace)
    per_second = [pace] * int(full) + ([rest] if rest else [])
    mean = units if isinstance(units, float) else statistics.fmean(units or [0.0])
    demand = Demand()
    for space in [TABLE] + ([index.name] if index is not None else []):  # an index write: the item's units
        demand.add(space, per_second, mean, 0.0)
    return demand


def _shape(table: KeySpace, requests: list[Request], units: float | list[float], pace: float) -> LoadShape:
    """Where each item lands among the table's starting partitions, in the order it is sent."""
    numbers = {part.pid: number for number, part in enumerate(table.partitions)}
    hashes = list(map(itemgetter(1), requests))
    part_of = {hashed: numbers[table.locate(hashed, b"").pid] for hashed in set(hashes)}
    costs = units if isinstance(units, float) else [float(request[3]) for request in requests]
    return load_shape(list(map(part_of.__getitem__, hashes)), costs, len(table.partitions), pace)
