"""The cost-based optimizer: every access path that can answer a search, estimated, the cheapest chosen.

Candidates, for each request: every index's own plans, as its kind makes them (:mod:`zindex.kinds`: a Z
index's cut sets of address ranges, a sorted index's Query per shard when the search bounds its
attribute), and a parallel Scan of each index and of the table. Each is estimated from the statistics
(:mod:`zindex.statistics`) and priced by :class:`zindex.plan.CostModel`; the cheapest runs. A page
cursor pins its plan family (its order), so a search's pages stay one plan. :func:`explain` lays the
comparison out, as PostgreSQL's EXPLAIN does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from zindex.plan import MAX_PAGE_BYTES, CostModel, Estimate, Plan, Span, calls
from zindex.query import SearchQuery
from zindex.readers import SCAN
from zindex.sizes import read_units
from zindex.statistics import Statistics

__all__ = ["Choice", "candidates", "choose", "describe", "explain"]

MAX_SEGMENTS = 8  # a parallel Scan's segments (threads of one search)


@dataclass(frozen=True)
class Choice:
    """The candidates with their costs, cheapest first, and the one chosen."""

    chosen: Plan
    ranked: tuple[tuple[Plan, float], ...]


def _scan(source: str | None, items: float, entry_bytes: float, results: float) -> Plan:
    pages = max(1.0, items * entry_bytes / MAX_PAGE_BYTES)
    segments = int(min(MAX_SEGMENTS, max(1, round(pages))))
    spans = tuple(Span(s, 0, 0, results / segments, items / segments) for s in range(segments))
    queries = sum(calls(s.reads, entry_bytes) for s in spans)
    rcu = sum(read_units(s.reads, entry_bytes) for s in spans)
    estimate = Estimate(items, results, queries, rcu)
    return Plan("scan", source, spans, estimate, detail={"segments": segments}, access=SCAN)


def candidates(query: SearchQuery, stats: Statistics, model: CostModel) -> list[Plan]:
    """Every access path for ``query``, each with its estimate.

    Scans first, then the indexes, the cheapest kinds to plan first: the cheapest cost found so far
    bounds each index's planning, which then skips refining what cannot win. The matches expected
    come from the first index whose kind can tell (a Z index: its leaves); the plans of the others and
    the Scans share them out over their spans."""
    scans = [_scan(name, own.keys.items, own.entry_bytes, 0.0) for name, own in stats.indexes.items()]
    scans.append(_scan(None, stats.items, stats.item_bytes, 0.0))
    told: list[Plan] = []  # plans whose kind estimated the matches
    untold: list[Plan] = []
    results: float | None = None
    for index in sorted(query.table.indexes, key=lambda i: i.planning_effort):
        bound = min(model.cost(p.estimate) for p in (*untold, *scans, *told))
        found = index.plans(query, stats.indexes[index.name], model, bound)
        if found.results is None:
            untold += found.plans
        else:
            told += found.plans
            results = found.results if results is None else results
    shared = results if results is not None else float(stats.items)
    return told + [_with_results(p, shared) for p in (*untold, *scans)]


def _with_results(plan: Plan, results: float) -> Plan:
    """A plan whose maker could not tell its matches, with the expected results shared out over its spans."""
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
    the chosen plan's row adds what its kind explains (a Z plan: its address ranges, hex, inclusive)."""
    return [
        {
            "plan": describe(plan),
            "kind": plan.kind,
            "index": plan.index,
            "cost": round(cost, 2),
            "chosen": plan is choice.chosen,
            "estimate": plan.estimate.as_dict(),
            **(plan.access.explained(plan) if plan is choice.chosen else {}),
        }
        for plan, cost in choice.ranked
    ]
