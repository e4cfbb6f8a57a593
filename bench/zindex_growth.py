"""Benchmark: the Z-index engine from 10^5 to 10^8 places, on the in-memory model of DynamoDB.

    python bench/zindex_growth.py [--sizes 100000,1000000,10000000,100000000] [--per-tier 30]
                                  [--searches-per-second 100] [--writes-per-second 20] [--seed 38]

At each size: places generated like cities500's (tatami.zindex_growth.generator) and indexed in the
model (tatami.dynamodb_model; validated against DynamoDB Local by tests/integration/zindex and
bench/zindex_model_check.py), statistics built as `tatami zindex analyze` builds them, then the same
boxes, sized to keep 10, 100, 1,000 and 10,000 expected places, searched through the engine (pages of
10,000, the executor reading one span at a time), each answer checked against a brute-force count
(the bench stops on any difference) and every other candidate plan's exact cost compared with the
chosen one's; the world's places of a million or more; writes of each kind billed.

Prints, per size and tier: read units per result, items read per result, Queries per box, planning
time, the plans chosen and whether each was the cheapest; the statistics' size and refresh cost; the
maintainer's write units; memory and time. Then the issue's goals (MET or MISS with the figure), the
monthly dollars of each design (tatami.zindex_growth.costs), writes bench/results/zindex_growth.json
and draws docs/benchmarks/zindex-growth.png.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path
from typing import Any

from _zindex_growth.chart import draw
from _zindex_growth.goals import goals
from _zindex_growth.summary import summarize
from _zorder_search import REPO

from tatami.zindex_growth.cities import cities500
from tatami.zindex_growth.costs import Design, month
from tatami.zindex_growth.generator import Density
from tatami.zindex_growth.point import measure_point
from tatami.zindex_growth.workload import draw as draw_boxes
from tatami_functions.places.table import PLACES
from zindex.plan import CostModel
from zindex.statistics import MAX_GROUPS

RESULTS = REPO / "bench" / "results" / "zindex_growth.json"
CHART = REPO / "docs" / "benchmarks" / "zindex-growth.png"


def options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="100000,1000000,10000000,100000000", help="places at each size")
    parser.add_argument("--per-tier", type=int, default=30, help="boxes per tier of expected places (30)")
    parser.add_argument("--writes-per-kind", type=int, default=100, help="writes billed per kind (100)")
    parser.add_argument(
        "--searches-per-second", type=float, default=100.0, help="for the monthly costs (100)"
    )
    parser.add_argument("--writes-per-second", type=float, default=20.0, help="for the monthly costs (20)")
    parser.add_argument("--seed", type=int, default=38, help="boxes' seed (38)")
    parser.add_argument(
        "--groups",
        type=int,
        default=MAX_GROUPS,
        help=f"statistics' histogram groups ({MAX_GROUPS:,}: analyze's)",
    )
    parser.add_argument("--results", type=Path, default=RESULTS, help="where the JSON goes")
    parser.add_argument("--no-chart", action="store_true", help="do not draw the PNG")
    return parser.parse_args()


def print_size(s: dict[str, Any]) -> None:
    print(f"\n{s['size']:,} places ({s['unsized']} boxes larger than the world left out)")
    head = (
        f"{'tier':>7} {'boxes':>6} {'found':>8} | {'RCU/result':>10} | {'read/result':>17} | {'Queries':>13}"
    )
    print(f"  {head} | within 1.1x")
    for tier, t in s["tiers"].items():
        r, a, q = t["rcu_per_result"], t["amplification"], t["queries"]
        print(
            f"  {int(tier):>7,} {t['boxes']:>6} {t['results']['median']:>8,.0f} | {r['median']:>10.3f} | "
            f"{a['median']:>7.2f} p95 {a['p95']:>5.2f} | {q['median']:>5.0f} p95 {q['p95']:>3.0f} | "
            f"{t['within']:.0%}"
        )
    p, w = s["planning_ms"], s["world"]
    print(
        f"  planning ms: median {p['median']:.1f}, p95 {p['p95']:.1f}, max {p['max']:.1f}; plans {s['plans']}"
    )
    print(f"  cheapest by exact count: {s['cheapest']}")
    print(
        f"  world population_min=1000000: {w['results']:,} places ({w['expected']:,.0f} expected), read "
        f"{w['read']:,}, {w['queries']} Queries, {w['rcu']:,.1f} RCU, {w['plan']}"
    )
    st = s["statistics"]
    print(
        f"  statistics: {st['bytes']} bytes; refresh: {st['refresh_read_units']:,.0f} read units (a Scan) + "
        f"{st['refresh_write_units']} write units; writes (user + maintainer WCU): {s['writes']}"
    )
    print(
        f"  model {s['model_bytes'] / 1e9:.2f} GB, peak RSS {s['peak_rss_bytes'] / 1e9:.2f} GB; "
        + ", ".join(f"{k} {v:.0f} s" for k, v in s["seconds"].items())
    )


def print_costs(summaries: list[dict[str, Any]], searches: float, writes: float) -> list[dict[str, Any]]:
    print(f"\nmonthly dollars at {searches:g} searches/s and {writes:g} writes/s (us-east-1 list prices):")
    head = f"{'places':>12} {'design':<34} {'storage':>9} {'on-demand':>10} {'provisioned':>12}"
    print(f"  {head} {'RCU/search':>11}")
    found = []
    for s in summaries:
        for design in (Design(**d) for d in s["designs"]):
            m = month(design, searches, writes)
            found.append(
                {"size": s["size"], **vars(m), "on_demand": m.on_demand, "provisioned": m.provisioned}
            )
            print(
                f"  {s['size']:>12,} {design.name:<34} {m.storage:>9,.2f} {m.on_demand:>10,.2f} "
                f"{m.provisioned:>12,.2f} {design.read_units_per_search:>11.1f}"
            )
    return found


def main() -> None:
    args, model = options(), CostModel()
    sizes = [int(float(s)) for s in args.sizes.split(",")]
    cities, started = cities500(), time.monotonic()
    specs = draw_boxes(Density(cities), args.per_tier, min(sizes), args.seed)
    summaries = []
    for size in sizes:
        point = measure_point(
            PLACES.named("growth"), cities, size, specs, args.writes_per_kind, print, args.groups
        )
        summaries.append(summarize(point, model))
        print_size(summaries[-1])
    print("\ngoals:")
    met = goals(summaries)
    for name, value, ok in met:
        print(f"  {'MET ' if ok else 'MISS'} {name}: {value:.3f}")
    costs = print_costs(summaries, args.searches_per_second, args.writes_per_second)
    if not args.no_chart:
        draw(summaries, CHART)
        print(f"\ndrew {CHART.relative_to(REPO)}")
    args.results.parent.mkdir(parents=True, exist_ok=True)
    load = os.getloadavg()
    args.results.write_text(
        json.dumps(
            {
                "python": platform.python_version(),
                "machine": platform.machine(),
                "cpus": os.cpu_count(),
                "load_average_at_end": load,
                "minutes": (time.monotonic() - started) / 60,
                "per_tier": args.per_tier,
                "seed": args.seed,
                "groups": args.groups,
                "sizes": summaries,
                "goals": [{"goal": n, "value": v, "met": ok} for n, v, ok in met],
                "costs": costs,
            },
            indent=1,
            default=str,
        )
    )
    print(f"wrote {args.results} (load average {load[0]:.1f} on {os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
