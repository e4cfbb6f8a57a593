"""Open-loop workloads: requests that arrive whatever the table does (a counter's increments here; reads
and mixes in `mix`), each from a caller with its own SDK client (`callers`).

Rates are `Schedule`s (steady, or steps over time). Units follow `model.items` (the one rule):
a keyed counter increment is a transaction (the shard's update and the key's record, two write
units each: `tatami_functions.counters.repository.commit_increment`), a transaction's items cost
twice a plain write's, an eventually consistent read half a strongly consistent one.
"""

from __future__ import annotations

from tatami.capacity.model.items import write_units
from tatami.capacity.model.keys import key_hash
from tatami.capacity.model.space import KeySpace
from tatami.capacity.workloads.arrivals import Arrivals
from tatami.capacity.workloads.callers import TICK, Stream
from tatami.capacity.workloads.demand import Demand
from tatami.capacity.workloads.schedule import Schedule
from tatami.capacity.workloads.setting import TABLE, Setting, Sharding, Workload

__all__ = ["IDEMPOTENCY", "Rate", "as_schedule", "counter_workload", "open_loop_workload", "spread_hash"]

IDEMPOTENCY = "idempotency"
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
    schedule, table = as_schedule(rate), setting.space(TABLE)
    keys = [shard_key(name, shard) for shard in range(shards)]
    hashes = [key_hash(key, setting.seed) for key in keys]
    streams, spaces = [], [table]
    if keyed < 1:
        plain = float(write_units(SHARD_ITEM_BYTES, setting.limits))
        choices = [(table, hashed, b"", plain, 0.0, 0, ()) for hashed in hashes]
        streams.append(Stream("increments", choices, schedule.scaled(1 - keyed)))
    if keyed > 0:
        spaces.append(setting.space(IDEMPOTENCY, secondary=True))
        streams.append(_keyed(table, spaces[-1], hashes, setting, schedule.scaled(keyed)))
    workload = open_loop_workload(
        name, spaces, streams, seconds, setting, dict(zip(hashes, keys, strict=True))
    )
    workload.sharding = Sharding(name, shards, schedule.peak)
    return workload


def _keyed(
    table: KeySpace, records: KeySpace, hashes: list[int], setting: Setting, schedule: Schedule
) -> Stream:
    """Keyed increments: each a transaction of its shard's update and its key's record, 2 units each."""
    shard_units = float(write_units(SHARD_ITEM_BYTES, setting.limits, transactional=True))
    record_units = float(write_units(RECORD_BYTES, setting.limits, transactional=True))
    shards = len(hashes)
    pairs = shards * -(-SPREAD_KEYS // shards)  # every shard equally often, with many record keys
    records_of = [(records, spread_hash("record", n, setting), b"", record_units, 0.0) for n in range(pairs)]
    choices = [(table, hashes[n % shards], b"", shard_units, 0.0, 0, (records_of[n],)) for n in range(pairs)]
    return Stream("keyed increments", choices, schedule, transactional=True)


def spread_hash(kind: str, number: int, setting: Setting) -> int:
    return key_hash(f"{kind}-{number}", setting.seed)


def as_schedule(rate: Rate) -> Schedule:
    return rate if isinstance(rate, Schedule) else Schedule.steady(rate)


def open_loop_workload(
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
