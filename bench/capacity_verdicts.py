"""Benchmark: the issues' examples at full scale, every reading, each verdict checked: its fix and number.

    python bench/capacity_verdicts.py [--seeds N] [--only NAME]

Each case runs as `tatami capacity` runs it (`reports.ranges.sweep`: the middle reading at N hash
seeds, the pessimistic and optimistic readings at the first) and prints, per case, the diagnoses
the runs name and how many runs name them, the heat splits and partitions at the end, the share of
attempts throttled, what the callers saw and the time (ranges), beside what is asked of it, and
whether the main run's verdict gives it (the fix and its number: a failed check fails the run):

- a file-order block load (50 keys x 2,000 rows): a rolling hot partition, fixed by shuffling;
- `counters --shards 1000 --rate 4000 --minutes 7 --provisioned 2000`: 0 heat splits, WCU 4,000;
- 40,000 writes/s on a new on-demand table for 150 minutes (AWS's 30-minute growth): the partitions
  at the end within twice the 40 the traffic needs;
- 60,000 writes/s on a table warmed to 60,000: the per-table quota named, an increase to 60,000;
- one item read 5,000 times a second, eventually consistent: a hot item;
- and issue 39's shapes (`_capacity_verdicts.shapes`): keys in order at any speed, an export
  reloaded in order, a doubling ramp by AWS's rule, keyed increments on one shard, a GSI short of
  capacity, mixed reads and writes on a hot key.

The warm-up offers its writes in one-second groups without retries (its point is the table, and
150 minutes of 40,000/s at 50 ms would take an hour to simulate); the ramp's callers arrive and
retry on one-second ticks for the same reason. Writes bench/results/capacity_verdicts.json.
"""

from __future__ import annotations

import argparse
import platform
import time
from collections.abc import Callable
from dataclasses import replace

from _capacity_verdicts import REPO as ROOT
from _capacity_verdicts.shapes import SHAPES, Check, expect, first, fix
from _results import write_results

from tatami.capacity.model.capacity import Capacity
from tatami.capacity.model.items import write_units
from tatami.capacity.model.keys import key_hash
from tatami.capacity.reports.ranges import Ranges, sweep
from tatami.capacity.reports.verdict import percent
from tatami.capacity.workloads.arrivals import Arrivals
from tatami.capacity.workloads.builders import (
    FILE_ORDER,
    Setting,
    Workload,
    counter_workload,
    keys_workload,
    reads_workload,
)
from tatami.capacity.workloads.sdk import ClientConfig, SdkClient

RESULTS = ROOT / "bench" / "results" / "capacity_verdicts.json"
BLOCKS = [(f"block-{key}", row) for key in range(50) for row in range(2000)]


def warm_up(setting: Setting) -> Workload:
    """40,000 writes a second over 500 keys for 150 minutes, in one-second groups, never retried."""
    table = setting.space("table")
    units = float(write_units(100, setting.limits))  # a small item: one write unit, by the one rule
    choices = [(table, key_hash(f"k{n}", setting.seed), b"", units, 0.0, 0, ()) for n in range(500)]
    client = Arrivals(
        choices, 40_000, 150 * 60, SdkClient(ClientConfig(max_attempts=1)), setting.seed, tick=1.0
    )
    workload = Workload("40,000 writes/s, new on-demand table, 150 min", [table], client)
    workload.demand.add("table", [40_000.0] * 150 * 60, units, 0.0)  # what it asks, for the fixes' numbers
    return workload


def no_heat_splits_and_wcu(ranges: Ranges) -> list[str]:
    report = ranges.main
    heat = sum(1 for split in report.splits["table"] if split.reason == "heat")
    problems = [f"{heat} heat splits"] if heat else []
    return problems + expect(fix(first(report, "table limit"), "WCU"), "WCU", 4000, 4000)


def partitions_near_40(ranges: Ranges) -> list[str]:
    partitions = ranges.main.spaces["table"].partitions[1]
    return [] if 40 <= partitions <= 80 else [f"{partitions} partitions at the end"]


def quota(ranges: Ranges) -> list[str]:
    return expect(fix(first(ranges.main, "quota"), "quota"), "quota", 60_000, 60_000)


def hot_item(ranges: Ranges) -> list[str]:
    return [] if first(ranges.main, "hot item") else ["no hot item"]


def rolling(ranges: Ranges) -> list[str]:
    return [] if fix(first(ranges.main, "rolling hot partition"), "order") else ["not told to shuffle"]


CASES: dict[str, tuple[str, Setting, Callable[[Setting], Workload], Check]] = {
    "blocks": (
        "rolling hot partition, shuffle",
        Setting(),
        lambda s: keys_workload("50 keys x 2,000 rows, file order", BLOCKS, s, order=FILE_ORDER),
        rolling,
    ),
    "counters": (
        "0 heat splits, WCU 4,000",
        Setting(Capacity.provisioned(2000)),
        lambda s: counter_workload("votes", 1000, 4000, 7 * 60, s),
        no_heat_splits_and_wcu,
    ),
    "warm-up": ("partitions within 2x of 40", Setting(), warm_up, partitions_near_40),
    "quota": (
        "per-table quota, an increase to 60,000",
        Setting(Capacity.on_demand(60_000)),
        lambda s: counter_workload("votes", 1000, 60_000, 60, s),
        quota,
    ),
    "hot read": (
        "hot item",
        Setting(),
        lambda s: reads_workload("one item, 5,000 eventually consistent reads/s", 1, 5000, 60, s),
        hot_item,
    ),
    **SHAPES,
}


def row(name: str, expected: str, ranges: Ranges, cpu: float, problems: list[str]) -> dict[str, object]:
    kinds = ", ".join(f"{kind} {count}/{len(ranges.runs)}" for kind, count in ranges.kinds().most_common())
    heat = ranges.span(lambda r: sum(1 for split in r.splits["table"] if split.reason == "heat"))
    partitions = ranges.span(lambda r: r.spaces["table"].partitions[1])
    throttled = ranges.span(lambda r: r.throttled_share)
    failed = ranges.span(lambda r: r.failed_share)
    seconds = ranges.span(lambda r: r.duration)
    print(f"{name} (asked: {expected}) [{cpu:.1f} s of CPU]: {'; '.join(problems) or 'as asked'}")
    print(f"    verdicts: {kinds or 'none'}")
    print(
        f"    heat splits {heat}; partitions at end {partitions}; attempts throttled "
        f"{percent(throttled.middle)} ({percent(throttled.low)}-{percent(throttled.high)}); requests failed "
        f"{percent(failed.middle)} ({percent(failed.low)}-{percent(failed.high)}); "
        f"time {seconds.format(',.1f', ' s')}"
    )
    print(f"    main run: {ranges.main.verdict}"[:900], flush=True)
    return {
        "case": name,
        "asked": expected,
        "problems": problems,
        "verdicts": dict(ranges.kinds()),
        "fixes": [str(fix) for diagnosis in ranges.main.verdict.diagnoses for fix in diagnosis.fixes]
        if ranges.main.verdict
        else [],
        "heat_splits": vars(heat),
        "partitions": vars(partitions),
        "throttled_share": vars(throttled),
        "failed_share": vars(failed),
        "seconds": vars(seconds),
        "cpu_seconds": round(cpu, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--only", choices=list(CASES))
    args = parser.parse_args()
    rows = []
    for name, (expected, setting, build, check) in CASES.items():
        if args.only and name != args.only:
            continue
        cpu = time.process_time()
        ranges = sweep(build, replace(setting), args.seeds)
        rows.append(row(name, expected, ranges, time.process_time() - cpu, check(ranges)))
    document = {
        "benchmark": "capacity_verdicts",
        "machine": platform.platform(),
        "seeds": args.seeds,
        "cases": rows,
    }
    write_results(RESULTS, document)
    failed = [str(row["case"]) for row in rows if row["problems"]]
    if failed:
        raise SystemExit(f"verdicts not as asked: {', '.join(failed)}")


if __name__ == "__main__":
    main()
