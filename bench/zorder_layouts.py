"""Benchmark: which index layout for places? The same workload replayed over candidate schemas.

    python bench/zorder_layouts.py [--boxes 240] [--seed 2024] [--cities 500]

bench/zorder_search.py measures the deployed layout on DynamoDB Local; this one replays the same
workload (cities500, boxes centred on cities, some population-bounded) over an in-memory copy of the
index for each candidate layout of ``population``: its encoding, and the ceiling above which
populations share one address (bench/_zorder_search/simulate.py: reads are exact,
RCU is DynamoDB's billing rule), with the planner and statistics the service uses. It prints, per
layout, the four figures issue 4 sets goals for, and the oracle's bound on the RCU goal
(bench/_zorder_search/oracle.py), and writes bench/results/zorder_layouts.json.
"""

from __future__ import annotations

import json
import statistics
import time
from typing import Any

from _zorder_search import REPO, oracle, simulate
from _zorder_search.data import cities, options, request_of, workload
from _zorder_search.figures import percentile

from infra.constructs.places import BUCKET_BITS, INDEX_NAME, PLACES_DOMAIN, PLACES_SCHEMA
from places import statistics as index_statistics
from places.settings import IndexSettings
from zorder import Fixed, Float, Schema, UInt

RESULTS = REPO / "bench" / "results" / "zorder_layouts.json"
LAT, LON = Fixed(-90, 90, 16), Fixed(-180, 180, 16)
Domain = dict[str, tuple[int | None, int | None]]
CEILING_2_26: Domain = {"population": (0, 2**26 - 1)}  # the ceiling deployed before 2**20
LAYOUTS: dict[str, tuple[Schema, Domain]] = {
    "UInt(32), ceiling 2**20 (deployed)": (PLACES_SCHEMA, PLACES_DOMAIN),
    "UInt(32), ceiling 2**26": (PLACES_SCHEMA, CEILING_2_26),
    "UInt(28), ceiling 2**20": (Schema.of(latitude=LAT, longitude=LON, population=UInt(28)), PLACES_DOMAIN),
    "UInt(28), ceiling 2**26": (Schema.of(latitude=LAT, longitude=LON, population=UInt(28)), CEILING_2_26),
    "Float(32) (log scale), ceiling 2**26": (
        Schema.of(latitude=LAT, longitude=LON, population=Float(32)),
        CEILING_2_26,
    ),
}


def replay_layout(
    schema: Schema, domain: Domain, rows: list[dict[str, Any]], boxes: list[dict[str, Any]]
) -> dict[str, Any]:
    settings = IndexSettings("replay", INDEX_NAME, schema, BUCKET_BITS, domain=domain)
    index = oracle.Index.build(settings, rows)
    density = index_statistics.build(schema, [a.to_bytes(schema.nbytes) for a in index.addresses])
    by_id = {row["id"]: row for row in rows}
    ours, single, loop, possible = [], [], 0, 0
    started = time.perf_counter()
    for bounds in boxes:
        request = request_of(bounds)
        mine = simulate.ours(index, by_id, settings, request, density)
        theirs = simulate.single(index, settings, request)
        loop += simulate.loop_queries(index, settings, request)
        bound = oracle.bound(index, settings, request, mine.ids)  # ours is exact: its places are the answer
        possible += bound.rcu_at_2x < bound.single_rcu
        ours.append(mine)
        single.append(theirs)
    amplification = [r.amplification for r in ours]
    queries = sum(r.queries for r in ours)
    return {
        "read_per_returned_median": statistics.median(amplification),
        "read_per_returned_p95": percentile(amplification, 0.95),
        "queries": queries,
        "loop_queries": loop,
        "queries_share_of_loop": queries / loop,
        "rcu": sum(r.rcu for r in ours),
        "single_rcu": sum(r.rcu for r in single),
        "fewer_rcu_than_single": sum(o.rcu < s.rcu for o, s in zip(ours, single, strict=True)) / len(boxes),
        "fewer_rcu_possible_at_2x": possible / len(boxes),
        "statistics_cells": len(density.cells),
        "seconds": time.perf_counter() - started,
    }


def main() -> None:
    parser = options(__doc__)
    args = parser.parse_args()
    rows = cities(args.cities)
    boxes = workload(rows, args.boxes, args.seed)
    print(
        f"{len(rows):,} places, {len(boxes)} boxes "
        f"({sum('population' in b for b in boxes)} population-bounded)\n"
    )
    print(
        f"{'layout':38s} | {'read/returned':>15s} | {'Queries':>7s} {'of loop':>8s} | "
        f"{'RCU ours / single':>19s} | {'fewer RCU than single':>22s} {'(oracle)':>9s}"
    )
    print(f"{'':38s} | {'median':>7s} {'p95':>7s} | {'':>7s} {'':>8s} |")
    print("-" * 132)
    found: dict[str, Any] = {}
    for name, (schema, domain) in LAYOUTS.items():
        r = found[name] = replay_layout(schema, domain, rows, boxes)
        print(
            f"{name:38s} | {r['read_per_returned_median']:>7.2f} {r['read_per_returned_p95']:>7.2f} | "
            f"{r['queries']:>7,} {r['queries_share_of_loop']:>8.3f} | "
            f"{r['rcu']:>9,.0f} {r['single_rcu']:>9,.0f} | "
            f"{r['fewer_rcu_than_single']:>22.3f} {r['fewer_rcu_possible_at_2x']:>9.3f}"
        )
    print(
        "\ngoals (issue 4): median <= 1.3, p95 <= 2.0, fewer RCU than single on >= 0.95 of boxes, "
        "<= 0.1 of the loop's Queries"
    )
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(
        json.dumps({"places": len(rows), "boxes": len(boxes), "seed": args.seed, "layouts": found}, indent=1)
    )
    print(f"wrote {RESULTS.relative_to(REPO)}")


if __name__ == "__main__":
    main()
