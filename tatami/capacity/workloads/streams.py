"""Open-loop workloads: requests that arrive whatever the table does (a counter's increments, reads,
a mix of writes, reads and transactions), each from a caller with its own SDK client (`callers`).

Rates are `Schedule`s (steady, or steps over time). Units follow `model.items` (the one rule):
a keyed counter increment is a transaction (the shard's update and the key's record, two write
units each: `tatami_functions.counters.repository.commit_increment`), a transaction's items cost
twice a plain write's, an eventually consistent read half a strongly consistent one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tatami.capacity.model.engine import Request
from tatami.capacity.model.items import read_units, write_units
from tatami.capacity.model.keys import key_hash
from tatami.capacity.model.space import KeySpace
from tatami.capacity.workloads.arrivals import Arrivals
from tatami.capacity.workloads.callers import TICK, Stream
from tatami.capacity.workloads.demand import Demand
from tatami.capacity.workloads.schedule import Schedule
from tatami.capacity.workloads.setting import TABLE, Setting, Sharding, Workload

__all__ = ["GSI", "IDEMPOTENCY", "Mix", "counter_workload", "mix_workload", "reads_workload"]

IDEMPOTENCY, GSI = "idempotency", f"{TABLE} gsi"
SHARD_ITEM_BYTES = 60  # a shard item: its key (`name#n`), its count and version: one write unit
RECORD_BYTES = 400  # a keyed increment's record (id, status, answer, validation, expiry): under 1 KB
SPREAD_KEYS = 256  # distinct keys a workload's many-keyed side uses (records, transaction partners)
Rate = float | Schedule


def counter_workload(
    name: str, shards: int, rate: Rate, seconds: float, setting: Setting, keyed: float = 0.0
) -> Workload:
    """`rate` increments a second on `shards` shard keys (`name#0` ...), each on a random shard.

    `keyed`: the share sent with an Idempotency-Key: one TransactWriteItems of the shard's update
    and the key's record in the idempotency table.
    """
    from tatami_functions.counters.sharding import shard_key  # the service's own key format

    if not 0 <= keyed <= 1:
        raise ValueError(f"keyed share {keyed} must be within [0, 1]")
    schedule, table = _schedule(rate), setting.space(TABLE)
    keys = [shard_key(name, shard) for shard in range(shards)]
    hashes = [key_hash(key, setting.seed) for key in keys]
    streams = []
    if keyed < 1:
        plain = float(write_units(SHARD_ITEM_BYTES, setting.limits))
        streams.append(
            Stream(
                "increments", [(table, h, b"", plain, 0.0, 0, ()) for h in hashes], schedule.scaled(1 - keyed)
            )
        )
    spaces = [table]
    if keyed > 0:
        records = setting.space(IDEMPOTENCY, secondary=True)
        spaces.append(records)
        shard_units = float(write_units(SHARD_ITEM_BYTES, setting.limits, transactional=True))
        record_units = float(write_units(RECORD_BYTES, setting.limits, transactional=True))
        pairs = shards * -(-SPREAD_KEYS // shards)  # every shard equally often, with many record keys
        choices = [
            (
                table,
                hashes[n % shards],
                b"",
                shard_units,
                0.0,
                0,
                ((records, _spread_hash("record", n, setting), b"", record_units, 0.0),),
            )
            for n in range(pairs)
        ]
        streams.append(Stream("keyed increments", choices, schedule.scaled(keyed), transactional=True))
    workload = _open_loop(name, spaces, streams, seconds, setting, dict(zip(hashes, keys, strict=True)))
    workload.sharding = Sharding(name, shards, schedule.peak)
    return workload


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
    mix = Mix(keys, reads=_schedule(rate), item_bytes=item_bytes, consistent=consistent, prefix="item")
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
    size, limits = mix.item_bytes, setting.limits
    put = float(write_units(size, limits))

    def writes(numbers: Sequence[int]) -> list[Request]:
        return [(table, hashes[n], b"", put, 0.0, size, _gsi(index, n, mix, put, setting)) for n in numbers]

    def reads(numbers: Sequence[int]) -> list[Request]:
        units = read_units(size, mix.consistent, limits)
        return [(table, hashes[n], b"", 0.0, units, 0, ()) for n in numbers]

    def transactions(numbers: Sequence[int]) -> list[Request]:
        units = float(write_units(size, limits, transactional=True))
        return [
            (table, hashes[n], b"", units, 0.0, size, _partners(table, hashes, n, mix, units))
            for n in numbers
        ]

    streams = []
    for label, schedule, build, transactional in (
        ("writes", mix.writes, writes, False),
        ("reads", mix.reads, reads, False),
        ("transactions", mix.transactions, transactions, True),
    ):
        if schedule is not None:
            streams += _with_hot_key(label, schedule, build, mix, transactional)
    spaces = [table] + ([index] if index else [])
    workload = _open_loop(name, spaces, streams, seconds, setting, dict(zip(hashes, keys, strict=True)), tick)
    if index is not None and mix.gsi_keys:
        workload.labels.update(
            {(GSI, _spread_hash("gsi", n, setting)): f"gsi-{n}" for n in range(mix.gsi_keys)}
        )
    workload.item_bytes, workload.consistent = float(size), mix.consistent
    return workload


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
    return ((index, _spread_hash("gsi", number % mix.gsi_keys, setting), number.to_bytes(8, "big"), units),)


def _partners(table: KeySpace, hashes: list[int], number: int, mix: Mix, units: float) -> tuple[Request, ...]:
    """A transaction's other items: keys after `number` (any distinct keys of the table)."""
    count = min(mix.transaction_items, len(hashes)) - 1
    return tuple((table, hashes[(number + 1 + k) % len(hashes)], b"", units, 0.0) for k in range(count))


def _spread_hash(kind: str, number: int, setting: Setting) -> int:
    return key_hash(f"{kind}-{number}", setting.seed)


def _schedule(rate: Rate) -> Schedule:
    return rate if isinstance(rate, Schedule) else Schedule.steady(rate)


def _open_loop(
    name: str,
    spaces: list[KeySpace],
    streams: list[Stream],
    seconds: float,
    setting: Setting,
    labels: dict[int, str],
    tick: float = TICK,
) -> Workload:
    """The workload of `streams` for `seconds`: its client, its demand and the units offered per key."""
    demand, offered = Demand(), dict[tuple[str, int], float]()
    whole = max(1, round(seconds))
    for stream in streams:
        per_second = stream.schedule.per_second(whole)
        demand.add_requests(stream.choices, per_second)
        each = sum(per_second) / len(stream.choices)
        for request in stream.choices:  # what each key costs its partition (reads at a third of a unit)
            for part in (request, *request[6]):
                units = part[3] + (part[4] if len(part) > 4 else 0.0) * setting.limits.read_cost
                offered[part[0].name, part[1]] = offered.get((part[0].name, part[1]), 0.0) + each * units
    client = Arrivals.of(streams, seconds, setting.sdk(), setting.seed, tick)
    items = round(sum(sum(stream.schedule.per_second(whole)) for stream in streams))
    named = {(TABLE, hashed): key for hashed, key in labels.items()}
    return Workload(name, spaces, client, named, offered, items, demand=demand)
