"""Benchmark: zorder's encoding against pymorton and zCurve, measured in the same run.

    python bench/zorder_encode.py [--points N] [--repeat R]

Prints a table and writes bench/results/zorder_encode.json. pymorton and zCurve (the `bench` extra) are
imported here only: zorder itself needs nothing outside the standard library.
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pymorton
import zCurve
from _results import write_results

from zorder import Fixed, Schema, UInt
from zorder.bits import interleaver

RESULTS = Path(__file__).resolve().parent / "results" / "zorder_encode.json"
PLACES = Schema.of(latitude=Fixed(-90, 90, 16), longitude=Fixed(-180, 180, 16), population=UInt(32))
CITY = PLACES.box({"latitude": 35.5, "longitude": 139.5}, {"latitude": 35.9, "longitude": 139.9})
REGION = PLACES.box(
    {"latitude": 30, "longitude": 130, "population": 100_000}, {"latitude": 40, "longitude": 145}
)


def best_seconds(runs: dict[str, Callable[[], object]], repeat: int) -> dict[str, float]:
    """Fastest of ``repeat`` runs of each; rounds alternate between the runs so that a burst of other
    work on the machine slows every contender alike instead of whichever happened to be running."""
    best = dict.fromkeys(runs, float("inf"))
    gc.disable()  # as timeit does: a collection landing in one run would be charged to that contender
    try:
        for _ in range(repeat):
            for name, run in runs.items():
                start = time.perf_counter()
                run()
                best[name] = min(best[name], time.perf_counter() - start)
    finally:
        gc.enable()
    return best


def encode_rates(points: list[tuple[int, int]], repeat: int) -> dict[str, float]:
    """Encodes per second of 2-D 16-bit unsigned points, one line per implementation."""
    morton, curve = pymorton.interleave2, zCurve.interlace
    layout = interleaver((16, 16))
    schema = Schema.of(y=UInt(16), x=UInt(16))
    records = [{"y": y, "x": x} for x, y in points]
    interleave, encode = layout.interleave, schema.encode  # bound once, like the imported functions
    # Same addresses: pymorton puts its first argument in the low bit, zorder its first dimension high.
    assert all(morton(x, y) == layout.interleave((y, x)) for x, y in points[:1000])
    assert all(
        morton(x, y) == int.from_bytes(schema.encode(r)) for (x, y), r in zip(points, records, strict=True)
    )
    runs: dict[str, Callable[[], object]] = {
        "pymorton.interleave2(x, y) -> int": lambda: [morton(x, y) for x, y in points],
        "zCurve.interlace(x, y, dims=2, bits_per_dim=16) -> int": lambda: [
            curve(x, y, dims=2, bits_per_dim=16) for x, y in points
        ],
        "zorder Interleaver.interleave((y, x)) -> int": lambda: [interleave((y, x)) for x, y in points],
        "zorder Schema.encode({'y': y, 'x': x}) -> bytes": lambda: [encode(r) for r in records],
    }
    return {name: len(points) / seconds for name, seconds in best_seconds(runs, repeat).items()}


def typed_rate(count: int, repeat: int, rng: random.Random) -> float:
    """Records per second for the places schema: two Fixed floats and a 32-bit int."""
    records = [
        {
            "latitude": rng.uniform(-90, 90),
            "longitude": rng.uniform(-180, 180),
            "population": rng.randrange(2**32),
        }
        for _ in range(count)
    ]
    encode = PLACES.encode
    return count / best_seconds({"typed": lambda: [encode(r) for r in records]}, repeat)["typed"]


def search_costs(count: int, repeat: int, rng: random.Random) -> dict[str, float]:
    """Microseconds per ``next_in_box`` (random start addresses) and per ``ranges(box, 64)``."""
    starts = [rng.randrange(2**64).to_bytes(8) for _ in range(count)]
    runs: dict[str, Callable[[], object]] = {}
    calls: dict[str, int] = {}
    for label, box in (("city box", CITY), ("region box, population >= 100,000", REGION)):
        runs[f"next_in_box, {label}"] = lambda b=box: [PLACES.next_in_box(z, b) for z in starts]
        calls[f"next_in_box, {label}"] = len(starts)
        runs[f"ranges(box, 64), {label}"] = lambda b=box: [PLACES.ranges(b, 64) for _ in range(10)]
        calls[f"ranges(box, 64), {label}"] = 10
    costs = {name: seconds / calls[name] * 1e6 for name, seconds in best_seconds(runs, repeat).items()}
    return costs


def table(rates: dict[str, float], typed: float, costs: dict[str, float]) -> str:
    base = rates["pymorton.interleave2(x, y) -> int"]
    width = max(len(k) for k in (*rates, *costs)) + 2
    lines = [f"{'2-D 16-bit unsigned points':<{width}}{'encodes/s':>14}{'vs pymorton':>14}"]
    lines += [f"{name:<{width}}{rate:>14,.0f}{rate / base:>13.2f}x" for name, rate in rates.items()]
    lines += ["", f"{'typed 3-D records (Fixed, Fixed, UInt(32))':<{width}}{typed:>14,.0f}  records/s", ""]
    lines += [f"{name:<{width}}{cost:>14,.1f}  µs per call" for name, cost in costs.items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=20_000, help="points per measurement")
    parser.add_argument("--repeat", type=int, default=15, help="runs per measurement; the fastest counts")
    args = parser.parse_args(argv)
    rng = random.Random(2024)
    points = [(rng.randrange(2**16), rng.randrange(2**16)) for _ in range(args.points)]
    rates = encode_rates(points, args.repeat)
    typed = typed_rate(args.points, args.repeat, rng)
    costs = search_costs(max(1, args.points // 10), args.repeat, rng)
    python = platform.python_version()
    print(f"zorder encode benchmark: Python {python}, {args.points:,} points, best of {args.repeat}")
    print(table(rates, typed, costs))
    ours = rates["zorder Schema.encode({'y': y, 'x': x}) -> bytes"]
    goal = "met" if ours >= rates["pymorton.interleave2(x, y) -> int"] else "NOT met"
    print(f"\ngoal (Schema.encode at least pymorton's rate, no dependency): {goal}")
    result: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "points": args.points,
        "repeat": args.repeat,
        "encodes_per_second_2d_16bit": rates,
        "typed_3d_records_per_second": typed,
        "microseconds_per_call": costs,
        "goal_met": goal == "met",
    }
    write_results(RESULTS, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
