"""Reads, and mixes of writes, reads and transactions on one table (and its index), at their rates.

Each request is on a random key (or, with a hot share, on `key-0`) from a caller with its own SDK
client. A write costs `model.items`'s units for its item; a read half of that per 4 KB when
eventually consistent; a transaction's items twice a plain write's each, all admitted or none.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tatami.capacity.model.engine import Request
from tatami.capacity.model.items import read_units, write_units
from tatami.capacity.model.keys import key_hash
from tatami.capacity.model.space import KeySpace
from tatami.capacity.workloads.callers import TICK, Stream
from tatami.capacity.workloads.schedule import Schedule
from tatami.capacity.workloads.setting import TABLE, Setting, Workload
from tatami.capacity.workloads.streams import Rate, as_schedule, open_loop_workload, spread_hash

__all__ = ["GSI", "Mix", "mix_workload", "reads_workload"]

GSI = f"{TABLE} gsi"


def reads_workload(
    name: str,
    keys: int,
    rate: Rate,
    seconds: float,
    setting: Setting,
    item_bytes: int = 1000,
    consistent: bool = False,
) -> Workload:
    """`rate` GetItem calls a second for `seconds`, each on one of `keys` items at random.

    Each read costs what AWS charges for an item of `item_bytes`: one unit per 4 KB, half of
    that when eventually consistent (the default, as for GetItem).
    """
    mix = Mix(keys, reads=as_schedule(rate), item_bytes=item_bytes, consistent=consistent, prefix="item")
    return mix_workload(name, mix, seconds, setting)


class Mix:
    """A mix of writes (PutItem), reads (GetItem) and transactions (TransactWriteItems) over `keys` keys.

    `hot_share`: the share of each operation's requests on one key (`key-0`); `gsi_keys`: writes also
    write a global secondary index whose partition key takes this many values; `prefix`: the keys'
    names (`key-0`, `key-1`...).
    """

    def __init__(
        self,
        keys: int,
        writes: Schedule | None = None,
        reads: Schedule | None = None,
        transactions: Schedule | None = None,
        item_bytes: int = 1000,
        consistent: bool = False,
        transaction_items: int = 2,
        hot_share: float = 0.0,
        gsi_keys: int | None = None,
        prefix: str = "key",
    ) -> None:
        if keys < 1 or not (writes or reads or transactions):
            raise ValueError("a mix needs keys and at least one of writes, reads or transactions")
        if (
            not 0 <= hot_share < 1
            or not 1 <= transaction_items <= 100
            or (gsi_keys is not None and gsi_keys < 1)
        ):
            raise ValueError("hot share within [0, 1), transaction items within 1-100, index keys at least 1")
        self.keys, self.writes, self.reads, self.transactions = keys, writes, reads, transactions
        self.item_bytes, self.consistent, self.transaction_items = item_bytes, consistent, transaction_items
        self.hot_share, self.gsi_keys, self.prefix = hot_share, gsi_keys, prefix


def mix_workload(name: str, mix: Mix, seconds: float, setting: Setting, tick: float = TICK) -> Workload:
    """The mix's streams on one table (and its index), each request on a random key (or the hot one).

    `tick`: seconds between groups of arrivals (and retries): longer runs cheaper, coarser.
    """
    table = setting.space(TABLE)
    index = setting.space(GSI, index=True) if mix.gsi_keys and mix.writes else None
    keys = [f"{mix.prefix}-{number}" for number in range(mix.keys)]
    hashes = [key_hash(key, setting.seed) for key in keys]
    streams = _streams(mix, table, index, hashes, setting)
    spaces = [table] + ([index] if index else [])
    workload = open_loop_workload(
        name, spaces, streams, seconds, setting, dict(zip(hashes, keys, strict=True)), tick
    )
    if index is not None and mix.gsi_keys:
        workload.labels.update(
            {(GSI, spread_hash("gsi", n, setting)): f"gsi-{n}" for n in range(mix.gsi_keys)}
        )
    workload.item_bytes, workload.consistent = float(mix.item_bytes), mix.consistent
    return workload


def _streams(
    mix: Mix, table: KeySpace, index: KeySpace | None, hashes: list[int], setting: Setting
) -> list[Stream]:
    """The mix's operations as streams: each over every key, and (hot share) on key-0 alone."""
    size, limits = mix.item_bytes, setting.limits
    put = float(write_units(size, limits))
    read = read_units(size, mix.consistent, limits)
    paired = float(write_units(size, limits, transactional=True))

    def writes(numbers: Sequence[int]) -> list[Request]:
        return [(table, hashes[n], b"", put, 0.0, size, _gsi(index, n, mix, put, setting)) for n in numbers]

    def reads(numbers: Sequence[int]) -> list[Request]:
        return [(table, hashes[n], b"", 0.0, read, 0, ()) for n in numbers]

    def transactions(numbers: Sequence[int]) -> list[Request]:
        return [
            (table, hashes[n], b"", paired, 0.0, size, _partners(table, hashes, n, mix, paired))
            for n in numbers
        ]

    operations = (
        ("writes", mix.writes, writes, False),
        ("reads", mix.reads, reads, False),
        ("transactions", mix.transactions, transactions, True),
    )
    return [
        stream
        for label, schedule, build, transactional in operations
        if schedule is not None
        for stream in _with_hot_key(label, schedule, build, mix, transactional)
    ]


def _with_hot_key(
    label: str,
    schedule: Schedule,
    build: Callable[[Sequence[int]], list[Request]],
    mix: Mix,
    transactional: bool,
) -> list[Stream]:
    """The operation's stream over every key, and (with a hot share) the same operation on key-0 alone."""
    streams = [Stream(label, build(range(mix.keys)), schedule.scaled(1 - mix.hot_share), transactional)]
    if mix.hot_share:
        streams.append(Stream(label, build([0]), schedule.scaled(mix.hot_share), transactional))
    return streams


def _gsi(
    index: KeySpace | None, number: int, mix: Mix, units: float, setting: Setting
) -> tuple[Request, ...]:
    """A write's index write: its index key, and its own item there (the base key sorts it within)."""
    if index is None or not mix.gsi_keys:
        return ()
    return ((index, spread_hash("gsi", number % mix.gsi_keys, setting), number.to_bytes(8, "big"), units),)


def _partners(table: KeySpace, hashes: list[int], number: int, mix: Mix, units: float) -> tuple[Request, ...]:
    """A transaction's other items: keys after `number` (any distinct keys of the table)."""
    count = min(mix.transaction_items, len(hashes)) - 1
    return tuple((table, hashes[(number + 1 + k) % len(hashes)], b"", units, 0.0) for k in range(count))
