"""Benchmark: the counters' shard formula checked against the capacity model (a shard curve).

    python bench/capacity_shards.py [--seeds N]

Seed 004 sizes a write-sharded counter with `shards = ceil(target WCU x ceil(item KB) / 1000)`: each
shard key takes up to 1,000 WCU, so S shards promise S x 1,000 increments a second. The model
offers exactly that (S x 1,000 increments a second, each on a random shard, 1 KB items) and
reports what DynamoDB would accept (throttled increments are not retried, so the offer stays at
S x 1,000), median over N hash seeds (where the shard keys land), at the middle reading of what AWS
leaves open:

- new table: a new on-demand table (4 partitions, 4,000 writes/s), the first minute;
- warm: a table warmed to the target (warm throughput S x 1,000: S partitions), the first minute;
- warm + 1.5x: the same with the seed's recommended margin (ceil(1.5 S) shards);
- after splits: the warm table after ten minutes, once split for heat separated shards that had
  landed on one partition.

Writes bench/results/capacity_shards.json; docs/capacity.md quotes its table.
"""

from __future__ import annotations

import argparse
import math
import platform
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "lambdas")]

from _results import write_results  # noqa: E402

from tatami.capacity.model.capacity import Capacity  # noqa: E402
from tatami.capacity.reports.run import simulate  # noqa: E402
from tatami.capacity.workloads.builders import Setting, counter_workload  # noqa: E402
from tatami.capacity.workloads.sdk import ClientConfig  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "capacity_shards.json"
SHARDS = (1, 2, 4, 8, 16)
ONCE = ClientConfig(max_attempts=1)  # increments offered exactly at the rate: throttled ones are not retried
MINUTES = 10


def accepted(shards: int, rate: float, capacity: Capacity, seconds: int, window: range, seed: int) -> float:
    setting = Setting(capacity, seed=seed, client=ONCE)
    report = simulate(counter_workload("votes", shards, rate, seconds, setting))
    per_second = report.rate()
    return sum(per_second[second] for second in window) / len(window)


def curve_point(shards: int, seeds: int) -> dict[str, float]:
    target = shards * 1000.0
    warm = Capacity.on_demand(target)
    columns = {
        "new table": lambda seed: accepted(shards, target, Capacity.on_demand(), 60, range(60), seed),
        "warm": lambda seed: accepted(shards, target, warm, 60, range(60), seed),
        "warm + 1.5x": lambda seed: accepted(math.ceil(1.5 * shards), target, warm, 60, range(60), seed),
        "after splits": lambda seed: accepted(shards, target, warm, MINUTES * 60, range(540, 600), seed),
    }
    return {name: statistics.median(run(seed) for seed in range(seeds)) for name, run in columns.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=9)
    args = parser.parse_args()
    header = ["new table", "warm", "warm + 1.5x", "after splits"]
    print(
        f"{'shards':>6} {'formula':>8} "
        + " ".join(f"{name:>13}" for name in header)
        + "   (increments/s accepted)"
    )
    rows = []
    for shards in SHARDS:
        point = curve_point(shards, args.seeds)
        rows.append({"shards": shards, "formula": shards * 1000, **point})
        print(f"{shards:>6} {shards * 1000:>8,} " + " ".join(f"{point[name]:>13,.0f}" for name in header))
    document = {
        "benchmark": "capacity_shards",
        "machine": platform.platform(),
        "seeds": args.seeds,
        "curve": rows,
    }
    write_results(RESULTS, document)


if __name__ == "__main__":
    main()
