"""Benchmark: seed 003's four loads through the capacity model, every reading, both latencies, N hash seeds.

    python bench/capacity_seed003.py [--seeds N] [--modes legacy,standard,adaptive]

The test (tests/unit/tatami/capacity/adapters/test_seed003.py) runs the middle reading at 4 ms with
three hash seeds; this runs every reading of what AWS leaves open (per-second or token-bucket
accounting, worst-case or optimistic on-demand growth, splits after 1-10 minutes), the seed's
loader at 2 and 4 ms a call, and N hash seeds (default 5), and prints, per load, the seed's figure
beside the model's plain throughput and CloudWatch-style reading: the median of the runs, their
range, and the error of the median (tatami/capacity/adapters/seed003.py says what is the seed's
and what is the model's, and which comparison holds by construction). Writes
bench/results/capacity_seed003.json.
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

from tatami.capacity.adapters import seed003  # noqa: E402
from tatami.capacity.workloads.sdk import MODES  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "capacity_seed003.json"


def other_mode(mode: str, seeds: int) -> list[seed003.LoadRanges]:
    """The four loads by a client in another retry mode: the middle reading, 4 ms a call."""
    results = [seed003.ranges(load, seeds, ("middle",), (0.004,), mode) for load in seed003.LOADS]
    print(f"{mode} retries instead (middle reading, 4 ms a call):\n{seed003.table(results)}", flush=True)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--modes", default=",".join(MODES), help="retry modes (the seed's first: legacy)")
    args = parser.parse_args()
    modes = [mode for mode in args.modes.split(",") if mode]
    cpu, wall = time.process_time(), time.perf_counter()
    found = []
    if seed003.SEED_MODE in modes:
        for load in seed003.LOADS:
            found.append(seed003.ranges(load, args.seeds))
            print(seed003.table(found[-1:]).splitlines()[1], flush=True)
        print(f"the seed's client ({seed003.SEED_MODE}):\n{seed003.table(found)}")
    others = {mode: other_mode(mode, args.seeds) for mode in modes if mode != seed003.SEED_MODE}
    document = {
        "benchmark": "capacity_seed003",
        "machine": platform.platform(),
        "data_set_items": seed003.DATASET_ITEMS,
        "seeds": args.seeds,
        "cpu_seconds": round(time.process_time() - cpu, 1),
        "wall_seconds": round(time.perf_counter() - wall, 1),
        "other_modes": {
            mode: [{"load": r.load.name, "plain": vars(r.plain), "reading": vars(r.reading)} for r in results]
            for mode, results in others.items()
        },
        "loads": [
            {
                "load": result.load.name,
                "seed": result.load.seed_figure,
                "by_construction": result.load.one_point,
                "plain": vars(result.plain),
                "reading": vars(result.reading),
                "runs": [
                    {
                        "reading": run.corner,
                        "hash_seed": run.seed,
                        "latency_ms": run.latency * 1000,
                        "plain": round(run.plain, 1),
                        "cloudwatch": round(run.reading, 1),
                        "seconds": round(run.report.duration, 1),
                        "verdict": run.report.verdict.kinds if run.report.verdict else [],
                    }
                    for run in result.runs
                ],
            }
            for result in found
        ],
    }
    write_results(RESULTS, document)
    print(f"spent {document['cpu_seconds']} s of CPU, {document['wall_seconds']} s")


if __name__ == "__main__":
    main()
