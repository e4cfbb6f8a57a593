"""Benchmark: seed 003's four loads through the capacity model, with many hash seeds.

    python bench/capacity_seed003.py [--seeds N]

The test (tests/unit/tatami/capacity/test_seed003.py) runs three hash seeds per load; this runs
N (default 15) and prints, per load, the seed's figure beside the model's median, its spread
(10th-90th percentile over hash seeds: where ~200 /8 keys land on 4 or 10 partitions) and the
error, measured as the seed measured (tatami/capacity/adapters/seed003.py). Writes
bench/results/capacity_seed003.json.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "lambdas")]

from tatami.capacity.adapters import seed003  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "capacity_seed003.json"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=15)
    args = parser.parse_args()
    rows, started = [], time.process_time()
    print(f"{'load':34} {'seed':>7} {'model':>7} {'p10-p90':>13} {'error':>7} {'seconds':>8}")
    for load in seed003.LOADS:
        runs = [seed003.run(load, seed) for seed in range(1 if load.one_key else args.seeds)]
        figures = [run.figure for run in runs]
        median = statistics.median(figures)
        durations = statistics.median(run.report.duration for run in runs)
        spread = f"{percentile(figures, 0.1):,.0f}-{percentile(figures, 0.9):,.0f}"
        error = median / load.seed_figure - 1
        figures_text = f"{load.seed_figure:>7,.0f} {median:>7,.0f} {spread:>13} {error:>+7.1%}"
        print(f"{load.name:34} {figures_text} {durations:>8.0f}")
        rows.append(
            {
                "load": load.name,
                "seed": load.seed_figure,
                "median": median,
                "figures": figures,
                "error": error,
            }
        )
    document = {
        "benchmark": "capacity_seed003",
        "machine": platform.platform(),
        "data_set_items": seed003.DATASET_ITEMS,
        "cpu_seconds": round(time.process_time() - started, 1),
        "loads": rows,
    }
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(document, indent=2) + "\n")
    print(f"wrote {RESULTS.relative_to(ROOT)} ({document['cpu_seconds']} s of CPU)")


if __name__ == "__main__":
    main()
