"""Benchmark: how long the capacity model takes to simulate a million writes (the issue asks < 10 s).

    python bench/capacity_speed.py [--writes N]

Loads of N writes (default 1,000,000), each timed in CPU and wall-clock seconds beside its
simulated duration: 1,000 keys shuffled into a new on-demand table by one writer (the common case),
the same keys in file order (one key at a time: throttled items are sent again), the shuffled load
by 16 writers (throttled at the table's 4,000 a second, retried by the SDK), and one shuffled load
by 16 writers into a table warmed to 40,000 writes/s (40 partitions). Writes
bench/results/capacity_speed.json.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "lambdas")]

from _results import write_results  # noqa: E402

from tatami.capacity.model.capacity import Capacity  # noqa: E402
from tatami.capacity.reports.run import simulate  # noqa: E402
from tatami.capacity.workloads.builders import FILE_ORDER, SHUFFLED, Setting, keys_workload  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "capacity_speed.json"
KEYS = 1000


def timed(name: str, writes: int, order: str, capacity: Capacity, writers: int = 1) -> dict[str, object]:
    keys = (
        [(f"key-{n % KEYS}", n) for n in range(writes)]
        if order == SHUFFLED
        else [(f"key-{n * KEYS // writes}", n) for n in range(writes)]
    )
    cpu, wall = time.process_time(), time.perf_counter()
    report = simulate(keys_workload(name, keys, Setting(capacity), 100, order, writers))
    row = {
        "load": name,
        "writes": writes,
        "cpu_seconds": round(time.process_time() - cpu, 2),
        "wall_seconds": round(time.perf_counter() - wall, 2),
        "simulated_seconds": round(report.duration, 1),
    }
    times = f"{row['cpu_seconds']:>8} {row['wall_seconds']:>8} {row['simulated_seconds']:>10,}"
    print(f"{name:44} {writes:>10,} {times}")
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writes", type=int, default=1_000_000)
    args = parser.parse_args()
    columns = f"{'writes':>10} {'cpu s':>8} {'wall s':>8} {'simulated s':>11}"
    print(f"{'load (workload built and simulated)':44} {columns}")
    rows = [
        timed("1,000 keys shuffled, new on-demand table", args.writes, SHUFFLED, Capacity.on_demand()),
        timed("1,000 keys in file order, new on-demand table", args.writes, FILE_ORDER, Capacity.on_demand()),
        timed("16 writers, shuffled, new on-demand table", args.writes, SHUFFLED, Capacity.on_demand(), 16),
        timed(
            "16 writers, shuffled, warm 40,000 writes/s",
            args.writes,
            SHUFFLED,
            Capacity.on_demand(40_000),
            16,
        ),
    ]
    document = {"benchmark": "capacity_speed", "machine": platform.platform(), "runs": rows}
    write_results(RESULTS, document)


if __name__ == "__main__":
    main()
