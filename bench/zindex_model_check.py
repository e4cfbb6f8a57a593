"""Benchmark: the in-memory model against DynamoDB Local on all of cities500, box by box.

    python bench/zindex_model_check.py [--boxes 240] [--population-boxes 60] [--seed 2024] [--fresh]
                                       [--cities 500]  (15000: the sample's 34,006 cities, a quicker load)

The places table of bench/zorder_search.py (its ~235,000 cities in DynamoDB Local under .local/bench/,
loaded once) and the same cities in the model (tatami.dynamodb_model, with DynamoDB Local's semantics:
its key order and its three billing differences from the documentation), the same statistics, then
that bench's 300 boxes and the world's million-plus cities searched through the engine on both (pages
of 10,000; the executor reading one span at a time on both, since its read-ahead depends on timing).
For each search: the places found, items read, Queries and read units must be equal; the bench prints
each difference and the totals side by side, the time each took, and writes
bench/results/zindex_model_check.json.
"""

from __future__ import annotations

import json
import time
from typing import Any

from _zorder_search import REPO
from _zorder_search.data import DECLARATION, client, options, prepare, query_of, start_engine, workload
from _zorder_search.strategies import Run, run_ours

from tatami.dynamodb_model import DYNAMODB_LOCAL, ModelDynamoDB
from tatami.zindex_growth.point import serial
from tatami.zindex_growth.table import create_table
from tatami_functions.common.paging import LIMIT_MAX
from zindex.dynamodb import IndexRepository
from zindex.keys import index_keys
from zindex.search import Searcher

RESULTS = REPO / "bench" / "results" / "zindex_model_check.json"
MARKER = {"id": "__zindex__#bench-loaded"}  # bench/zorder_search.py's, in the table: Scans read it


def model_of(rows: list[dict[str, Any]], local: Any) -> ModelDynamoDB:
    """The cities, their index keys and the table's own items (statistics, marker) in the model."""
    model = ModelDynamoDB(DYNAMODB_LOCAL)
    create_table(model, DECLARATION)
    model.load_items(DECLARATION.table, [{**row, **index_keys(DECLARATION, row)} for row in rows])
    keys = [{"id": {"S": f"__zindex__#{i.name}"}} for i in DECLARATION.indexes] + [
        {"id": {"S": MARKER["id"]}}
    ]
    for key in keys:
        item = local.get_item(TableName=DECLARATION.table, Key=key).get("Item")
        if item:
            model.put_item(TableName=DECLARATION.table, Item=item)
    return model


def figures(run: Run) -> dict[str, Any]:
    return {"places": len(run.ids), "read": run.read, "queries": run.queries, "rcu": run.rcu}


def compare(local: Searcher, model: Searcher, bounds: dict[str, Any]) -> dict[str, Any]:
    query = query_of(bounds)
    on_local, on_model = run_ours(local, query, LIMIT_MAX), run_ours(model, query, LIMIT_MAX)
    same = on_local.ids == on_model.ids and figures(on_local) == figures(on_model)
    return {
        "bounds": {k: [None if x is None else str(x) for x in v] for k, v in bounds.items()},
        "plan": on_local.plan,
        "local": figures(on_local) | {"seconds": on_local.seconds},
        "model": figures(on_model) | {"seconds": on_model.seconds},
        "same": same,
    }


def main() -> None:
    parser = options(__doc__)
    parser.add_argument("--fresh", action="store_true", help="drop the stored table and load it again")
    args = parser.parse_args()
    engine = start_engine(args.fresh)
    try:
        stats, rows, _ = prepare(args)
        started = time.monotonic()
        model = model_of(rows, client())
        print(f"model: {len(rows):,} cities loaded in {time.monotonic() - started:.0f} s")
        local = Searcher(IndexRepository(DECLARATION, client()), statistics=stats)
        modelled = Searcher(IndexRepository(DECLARATION, model.as_client()), statistics=stats)
        boxes = [
            *workload(rows, args.boxes, args.population_boxes, args.seed),
            {"population": (1_000_000, None)},
        ]
        found = []
        with serial():
            for n, bounds in enumerate(boxes, 1):
                found.append(compare(local, modelled, bounds))
                if not found[-1]["same"]:
                    print(f"\n  DIFFERENT {found[-1]}")
                print(f"\r  box {n}/{len(boxes)}", end="", flush=True)
    finally:
        engine.stop()
    report(found)


def report(found: list[dict[str, Any]]) -> None:
    same = sum(f["same"] for f in found)
    print(f"\n\n{same} of {len(found)} searches equal on the model and on DynamoDB Local:")
    for side in ("local", "model"):
        totals = {k: sum(f[side][k] for f in found) for k in ("places", "read", "queries", "rcu", "seconds")}
        print(
            f"  {side:>6}: {totals['places']:>9,} places, {totals['read']:>10,} read, "
            f"{totals['queries']:>7,} Queries, {totals['rcu']:>10,.1f} RCU, {totals['seconds']:>7,.1f} s"
        )
    plans: dict[str, int] = {}
    for f in found:
        plans[f["plan"]] = plans.get(f["plan"], 0) + 1
    print(f"  plans: {plans}")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({"searches": len(found), "equal": same, "per_search": found}, indent=1))
    print(f"wrote {RESULTS.relative_to(REPO)}")
    if same != len(found):
        raise SystemExit("the model and DynamoDB Local disagree (see DIFFERENT above)")


if __name__ == "__main__":
    main()
