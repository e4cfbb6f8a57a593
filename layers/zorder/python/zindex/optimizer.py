"""The cost-based optimizer: every access path that can answer a search, estimated, the cheapest chosen.

Candidates, for each request: per Z index its cheapest cut set of address ranges, one ``BETWEEN`` per
bucket and the BIGMIN walk (:mod:`zindex.zplans`); per sorted index whose attribute the search bounds,
one Query per shard over that key range; a parallel Scan of each index and of the table. Each is
estimated from the statistics (:mod:`zindex.statistics`) and priced by :class:`zindex.plan.CostModel`;
the cheapest runs. A page cursor pins its plan family (its order), so a search's pages stay one plan.
:func:`explain` lays the comparison out, as PostgreSQL's EXPLAIN does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from zindex.keys import bucket_shift
from zindex.plan import MAX_PAGE_BYTES, CostModel, Estimate, Plan, Span, calls
from zindex.query import SearchQuery
from zindex.sizes import read_units
from zindex.spec import SortedIndex
from zindex.statistics import Statistics
from zindex.zplans import ZPlanner

__all__ = ["Choice", "choose", "explain", "z_ranges"]

MAX_SEGMENTS = 8  # a parallel Scan's segments (threads of one search)


@dataclass(frozen=True)
class Choice:
    """The candidates with their costs, cheapest first, and the one chosen."""

    chosen: Plan
    ranked: tuple[tuple[Plan, float], ...]


def _sorted(query: SearchQuery, index: SortedIndex, stats: Statistics, results: float) -> Plan | None:
    keys = query.key_range(index.attribute)
    if keys is None:
        return None
    own = stats.indexes[index.name]
    reads = own.keys.count(*keys)
    per_shard = reads / index.shards
    expected = min(results, reads) / index.shards
    spans = tuple(Span(shard, 0, 0, expected, per_shard) for shard in range(index.shards))
    queries = index.shards * calls(per_shard, own.entry_bytes)
    rcu = index.shards * read_units(per_shard, own.entry_bytes)
    return Plan(
        "sorted",
        index.name,
        spans,
        Estimate(reads, min(results, reads), queries, rcu),
        detail={"shards": index.shards, "attribute": index.attribute},
    )


def _scan(source: str | None, items: float, entry_bytes: float, results: float) -> Plan:
    pages = max(1.0, items * entry_bytes / MAX_PAGE_BYTES)
    segments = int(min(MAX_SEGMENTS, max(1, round(pages))))
    spans = tuple(Span(s, 0, 0, results / segments, items / segments) for s in range(segments))
    queries = sum(calls(s.reads, entry_bytes) for s in spans)
    rcu = sum(read_units(s.reads, entry_bytes) for s in spans)
    return Plan("scan", source, spans, Estimate(items, results, queries, rcu), detail={"segments": segments})


def candidates(query: SearchQuery, stats: Statistics, model: CostModel) -> list[Plan]:
    """Every access path for ``query``, each with its estimate.

    The cheap ones come first (a sorted index's range, Scans); their cheapest cost bounds the Z plans,
    which then skip refining what cannot win. The expected results come from the first Z index's
    leaves (the sorted and Scan plans' spans share them out)."""
    table = query.table
    cheap = [
        p for p in (_sorted(query, i, stats, 0.0) for i in table.indexes if isinstance(i, SortedIndex)) if p
    ]
    cheap += [_scan(name, own.keys.items, own.entry_bytes, 0.0) for name, own in stats.indexes.items()]
    cheap.append(_scan(None, stats.items, stats.item_bytes, 0.0))
    bound = min(model.cost(p.estimate) for p in cheap)
    plans: list[Plan] = []
    results: float | None = None
    for index in table.z_indexes:
        boxes, shift = query.boxes(index.name), bucket_shift(table, index)
        planner = ZPlanner(index.name, boxes, stats.indexes[index.name], shift, model, bound)
        results = planner.results if results is None else results
        plans += planner.candidates()
    return plans + [_with_results(p, results if results is not None else float(stats.items)) for p in cheap]


def _with_results(plan: Plan, results: float) -> Plan:
    """A sorted or Scan plan with the expected results shared out over its spans."""
    results = min(results, plan.estimate.reads)
    spans = tuple(replace(s, expected=results / len(plan.spans)) for s in plan.spans)
    return replace(plan, spans=spans, estimate=replace(plan.estimate, results=results))


def choose(
    query: SearchQuery,
    stats: Statistics,
    model: CostModel,
    family: str | None = None,
    only: Callable[[Plan], bool] | None = None,
) -> Choice:
    """The cheapest plan (of ``family`` when a page cursor pins one; among ``only`` those when given:
    EXPLAIN ANALYZE of another candidate, tests of every access path)."""
    ranked = sorted(
        ((p, model.cost(p.estimate)) for p in candidates(query, stats, model)),
        key=lambda pc: (pc[1], pc[0].estimate.queries),
    )
    allowed = [p for p, _ in ranked if (family is None or p.family == family) and (only is None or only(p))]
    if not allowed:  # the cursor's plan no longer exists (its index was removed): start over is wrong
        raise LookupError(f"no plan of family {family!r} for this query")
    return Choice(allowed[0], tuple(ranked))


def describe(plan: Plan) -> str:
    where = f"{plan.index}" if plan.index else "table"
    extra = ", ".join(f"{k} {v}" for k, v in plan.detail.items())
    return f"{plan.kind} on {where}" + (f" ({extra})" if extra else "")


def explain(choice: Choice) -> list[dict[str, Any]]:
    """One row per candidate, cheapest first: what it is, its estimate, its cost, whether it was chosen;
    the chosen Z plan's row also lists its address ranges (hex, inclusive), so they can be drawn."""
    return [
        {
            "plan": describe(plan),
            "kind": plan.kind,
            "index": plan.index,
            "cost": round(cost, 2),
            "chosen": plan is choice.chosen,
            "estimate": plan.estimate.as_dict(),
            **({"ranges": z_ranges(plan)} if plan is choice.chosen and plan.kind.startswith("z-") else {}),
        }
        for plan, cost in choice.ranked
    ]


def z_ranges(plan: Plan) -> list[tuple[str, str]]:
    """A Z plan's spans as address ranges in hex (first, last), in the order the plan reads them.

    >>> z_ranges(Plan("z-ranges", "z", (Span(0, 10, 255),), Estimate(1, 1, 1, 0.5)))
    [('a', 'ff')]
    """
    return [(f"{span.first:x}", f"{span.last:x}") for span in plan.spans]
