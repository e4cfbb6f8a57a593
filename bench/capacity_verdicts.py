"""Benchmark: the issue's examples at full scale, every reading, with what each verdict names.

    python bench/capacity_verdicts.py [--seeds N] [--only NAME]

Each case runs as `tatami capacity` runs it (`reports.ranges.sweep`: the middle reading at N hash
seeds, the pessimistic and optimistic readings at the first) and prints, per case, the diagnoses
the runs name and how many runs name them, the heat splits and partitions at the end, the share of
attempts throttled and the time (ranges), beside what the issue asks of it:

- a file-order block load (50 keys x 2,000 rows): a rolling hot partition, fixed by shuffling;
- `counters --shards 1000 --rate 4000 --minutes 7 --provisioned 2000`: 0 heat splits, WCU named;
- 40,000 writes/s on a new on-demand table for 150 minutes (AWS's 30-minute growth): the partitions
  at the end within twice the 40 the traffic needs;
- 60,000 writes/s on a table warmed to 60,000: the per-table quota named;
- one item read 5,000 times a second, eventually consistent: a hot item.

The warm-up offers its writes in one-second groups without retries (its point is the table, and
150 minutes of 40,000/s at 50 ms would take an hour to simulate). Writes
bench/results/capacity_verdicts.json.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "lambdas")]

from _results import write_results  # noqa: E402

from tatami.capacity.model.capacity import Capacity  # noqa: E402
from tatami.capacity.model.keys import key_hash  # noqa: E402
from tatami.capacity.reports.ranges import Ranges, sweep  # noqa: E402
from tatami.capacity.reports.verdict import percent  # noqa: E402
from tatami.capacity.workloads.arrivals import Arrivals  # noqa: E402
from tatami.capacity.workloads.builders import (  # noqa: E402
    FILE_ORDER,
    Setting,
    Workload,
    counter_workload,
    keys_workload,
    reads_workload,
)
from tatami.capacity.workloads.sdk import ClientConfig, SdkClient  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "capacity_verdicts.json"
BLOCKS = [(f"block-{key}", row) for key in range(50) for row in range(2000)]


def warm_up(setting: Setting) -> Workload:
    """40,000 writes a second over 500 keys for 150 minutes, in one-second groups, never retried."""
    table = setting.space("table")
    choices = [(table, key_hash(f"k{n}", setting.seed), b"", 1.0, 0.0, 0, ()) for n in range(500)]
    client = Arrivals(
        choices, 40_000, 150 * 60, SdkClient(ClientConfig(max_attempts=1)), setting.seed, tick=1.0
    )
    return Workload("40,000 writes/s, new on-demand table, 150 min", [table], client)


CASES: dict[str, tuple[str, Setting, Callable[[Setting], Workload]]] = {
    "blocks": (
        "rolling hot partition, shuffle",
        Setting(),
        lambda s: keys_workload("50 keys x 2,000 rows, file order", BLOCKS, s, order=FILE_ORDER),
    ),
    "counters": (
        "0 heat splits, WCU",
        Setting(Capacity.provisioned(2000)),
        lambda s: counter_workload("votes", 1000, 4000, 7 * 60, s),
    ),
    "warm-up": ("partitions within 2x of 40", Setting(), warm_up),
    "quota": (
        "per-table quota",
        Setting(Capacity.on_demand(60_000)),
        lambda s: counter_workload("votes", 1000, 60_000, 60, s),
    ),
    "hot read": (
        "hot item",
        Setting(),
        lambda s: reads_workload("one item, 5,000 eventually consistent reads/s", 1, 5000, 60, s),
    ),
}


def row(name: str, expected: str, ranges: Ranges, cpu: float) -> dict[str, object]:
    kinds = ", ".join(f"{kind} {count}/{len(ranges.runs)}" for kind, count in ranges.kinds().most_common())
    heat = ranges.span(lambda r: sum(1 for split in r.splits["table"] if split.reason == "heat"))
    partitions = ranges.span(lambda r: r.spaces["table"].partitions[1])
    throttled = ranges.span(lambda r: r.throttled_share)
    seconds = ranges.span(lambda r: r.duration)
    print(f"{name} (asked: {expected}) [{cpu:.1f} s of CPU]")
    print(f"    verdicts: {kinds or 'none'}")
    print(
        f"    heat splits {heat}; partitions at end {partitions}; attempts throttled "
        f"{percent(throttled.middle)} ({percent(throttled.low)}-{percent(throttled.high)}); "
        f"time {seconds.format(',.1f', ' s')}"
    )
    print(f"    main run: {ranges.main.verdict}"[:600], flush=True)
    return {
        "case": name,
        "asked": expected,
        "verdicts": dict(ranges.kinds()),
        "heat_splits": vars(heat),
        "partitions": vars(partitions),
        "throttled_share": vars(throttled),
        "seconds": vars(seconds),
        "cpu_seconds": round(cpu, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--only", choices=list(CASES))
    args = parser.parse_args()
    rows = []
    for name, (expected, setting, build) in CASES.items():
        if args.only and name != args.only:
            continue
        cpu = time.process_time()
        ranges = sweep(build, replace(setting), args.seeds)
        rows.append(row(name, expected, ranges, time.process_time() - cpu))
    document = {
        "benchmark": "capacity_verdicts",
        "machine": platform.platform(),
        "seeds": args.seeds,
        "cases": rows,
    }
    write_results(RESULTS, document)


if __name__ == "__main__":
    main()
