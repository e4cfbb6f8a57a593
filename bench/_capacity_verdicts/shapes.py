"""The issue's shapes (39), each with the check of the verdict's fix and its number.

A check reads the main run's verdict (the middle reading, the first hash seed) and returns what is
wrong, or nothing: the fix a user acts on (its `setting`) and the number to set (its `value`), which
comes from the load's demand, never its retries.
"""

from __future__ import annotations

from collections.abc import Callable

from tatami.capacity.model.capacity import Capacity
from tatami.capacity.model.space import THR_TABLE
from tatami.capacity.reports.ranges import Ranges
from tatami.capacity.reports.report import Report
from tatami.capacity.reports.verdict import Diagnosis, Fix
from tatami.capacity.workloads.builders import (
    EXPORT,
    FILE_ORDER,
    Mix,
    Schedule,
    Setting,
    Workload,
    counter_workload,
    keys_workload,
    mix_workload,
)

__all__ = ["SHAPES", "Shape"]

Check = Callable[[Ranges], list[str]]
Shape = tuple[str, Setting, Callable[[Setting], Workload], Check]
FAST_KEYS = [(f"user-{key}", row) for key in range(200) for row in range(300)]  # a new key every 300 rows
EXPORTED = [(f"user-{n}", 0) for n in range(60_000)]  # one item a key, reloaded in the order a Scan read it
RAMP = Schedule.parse("4000,8000@30m,16000@60m")  # doubling, each peak held 30 minutes: AWS's rule


def first(report: Report, kind: str) -> Diagnosis | None:
    assert report.verdict is not None
    return next((diagnosis for diagnosis in report.verdict.diagnoses if diagnosis.kind == kind), None)


def fix(diagnosis: Diagnosis | None, setting: str) -> Fix | None:
    return next((fix for fix in diagnosis.fixes if fix.setting == setting), None) if diagnosis else None


def expect(found: Fix | None, what: str, low: float, high: float) -> list[str]:
    """The fix exists and its number lies in [low, high]."""
    if found is None:
        return [f"no fix setting {what}"]
    if found.value is None or not low <= found.value <= high:
        return [f"{what} = {found.value}, expected {low:,.0f}-{high:,.0f}"]
    return []


def ordered(ranges: Ranges) -> list[str]:
    """Named as ordered, fixed by shuffling, at the rate the partitions allow (4 of them: up to 4,000/s),
    well above what the ordered load reached."""
    report = ranges.main
    rolling = first(report, "rolling hot partition")
    problems = expect(fix(rolling, "order"), "shuffled rate", 1.5 * report.throughput, 4000)
    return problems + (["also named a collision"] if first(report, "collision") else [])


def ramp_kept(ranges: Ranges) -> list[str]:
    """No table-level throttle, no advice to ramp; the partitions' warm-up named with its number."""
    report = ranges.main
    problems = ["the table's limit throttled"] if report.totals("table")[THR_TABLE] else []
    assert report.verdict is not None
    if any(fix.setting == "ramp" for diagnosis in report.verdict.diagnoses for fix in diagnosis.fixes):
        problems.append("told to ramp, which it did")
    limit = first(report, "table limit") or first(report, "busy partition")
    return problems + (
        expect(fix(limit, "warm throughput"), "warm throughput", 16_000, 20_000) if limit else []
    )


def keyed(ranges: Ranges) -> list[str]:
    """600 keyed increments/s on one shard: 2 units each, so about 500/s; shard it in 2."""
    report = ranges.main
    problems = [] if 480 <= report.throughput <= 520 else [f"{report.throughput:,.0f}/s accepted, not ~500"]
    return problems + expect(fix(first(report, "hot item"), "shards"), "shards", 2, 2)


def gsi_short(ranges: Ranges) -> list[str]:
    """The index's own WCU: its own writes' peak (2,000), not the table's or the retries'."""
    found = first(ranges.main, "table limit")
    problems = [] if found and found.space == "table gsi" else ["not the index's limit"]
    return problems + expect(fix(found, "WCU"), "index WCU", 2000, 2000)


def mixed(ranges: Ranges) -> list[str]:
    """A hot key read (strongly consistent) and written: eventually consistent reads; spread its writes."""
    found = first(ranges.main, "hot key")
    problems = expect(fix(found, "ConsistentRead"), "eventually consistent reads", 0, 0)
    return problems + expect(fix(found, "shards"), "key values", 2, 3)


SHAPES: dict[str, Shape] = {
    "fast keys": (
        "ordered (a new key every 300 rows): shuffle, up to ~3,000/s",
        Setting(),
        lambda s: keys_workload("200 keys x 300 rows, file order", FAST_KEYS, s, order=FILE_ORDER),
        ordered,
    ),
    "export": (
        "ordered (a Scan export reloaded as read): shuffle, up to ~4,000/s",
        Setting(),
        lambda s: keys_workload("60,000 keys in export order", EXPORTED, s, order=EXPORT),
        ordered,
    ),
    "ramp by the rule": (
        "no table throttle, no 'ramp'; warm throughput 20,000 for its partitions",
        Setting(),
        lambda s: mix_workload(
            "writes doubling every 30 min", Mix(200, writes=RAMP, item_bytes=500), 90 * 60, s, 1.0
        ),
        ramp_kept,
    ),
    "keyed increments": (
        "~500/s of 600 keyed increments/s on one shard: 2 shards",
        Setting(),
        lambda s: counter_workload("votes", 1, 600, 60, s, keyed=1.0),
        keyed,
    ),
    "gsi short": (
        "index WCU 2,000 (its own writes), table WCU untouched",
        Setting(Capacity.provisioned(10_000, 100), index_capacity=Capacity.provisioned(500, 1)),
        lambda s: mix_workload(
            "2,000 writes/s, each into the index",
            Mix(1000, writes=Schedule.steady(2000), gsi_keys=1000),
            60,
            s,
        ),
        gsi_short,
    ),
    "mixed": (
        "hot key read and written: eventually consistent reads, 2-3 key values",
        Setting(),
        lambda s: mix_workload(
            "500 writes + 6,000 strongly consistent reads/s, half on key-0",
            Mix(
                1000,
                Schedule.steady(500),
                Schedule.steady(6000),
                item_bytes=2000,
                consistent=True,
                hot_share=0.5,
            ),
            60,
            s,
        ),
        mixed,
    ),
}
