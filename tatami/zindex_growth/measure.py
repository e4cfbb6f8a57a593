"""One search measured on the model: every page through the engine, its places against a brute-force count,
and every other candidate plan's exact cost, so that "the optimizer chose the cheapest" is a fact.

Exact costs are what a plan really reads when run (each candidate run to its end through the engine's
own executor, ``only`` that plan). A plan whose cost cannot go below the chosen one's is not run, and
its floor is known without reading: a Scan reads its whole index or table, a sorted index's Queries
its whole key range, and any plan at least every place it returns, with a Query per span (their bytes
at half a read unit per 4 KB, a Query per MB).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import numpy as np

from tatami.dynamodb_model.table import Table
from zindex import Cursor, SearchQuery, SortedIndex
from zindex.optimizer import describe
from zindex.plan import MAX_PAGE_BYTES, CostModel, Estimate, Plan
from zindex.search import Searcher

__all__ = ["Measured", "Run", "brute_force", "measure", "search"]


@dataclass
class Run:
    """What one search read and paid, every page of it."""

    rows: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # the places found
    read: int = 0
    queries: int = 0
    rcu: float = 0.0
    pages: int = 0
    planning_ms: float = 0.0  # the first page's
    plan: str = ""
    estimated_reads: float = 0.0
    seconds: float = 0.0

    @property
    def figures(self) -> Estimate:
        """What it read, returned, queried and paid (an Estimate's fields, measured)."""
        return Estimate(self.read, len(self.rows), self.queries, self.rcu)

    def cost(self, model: CostModel) -> float:
        return model.cost(self.figures)


def search(
    searcher: Searcher, query: SearchQuery, limit: int, only: Callable[[Plan], bool] | None = None
) -> Run:
    """Every page of one search, each cursor through its JSON form as a page token carries it."""
    run, cursor, found = Run(), None, []
    started = time.perf_counter()
    while True:
        page = searcher.search(query, limit, cursor, only)
        if not run.pages:
            run.planning_ms, run.plan = page.planning_ms, describe(page.choice.chosen)
            run.estimated_reads = page.choice.chosen.estimate.reads
        run.pages += 1
        found += [int(item["id"]) for item in page.items]
        run.read, run.queries = run.read + page.stats.items_read, run.queries + page.stats.queries
        run.rcu += page.stats.consumed_rcu
        if page.cursor is None:
            run.rows, run.seconds = np.sort(np.array(found, dtype=np.int64)), time.perf_counter() - started
            return run
        cursor = Cursor.from_json(page.cursor.to_json())


def brute_force(table: Table, query: SearchQuery) -> np.ndarray:
    """The rows whose numbers lie within the query's bounds, by comparing every row (ids are row numbers)."""
    mask = np.ones(table.rows, dtype=bool)
    for name, (low, high) in query.bounds.items():
        column = table.columns[name]
        units, scale = column.units, column.scale  # type: ignore[attr-defined]
        least = None if low is None else math.ceil(Decimal(low).scaleb(scale))
        most = None if high is None else math.floor(Decimal(high).scaleb(scale))
        if query.wraps(name):
            mask &= (units >= least) | (units <= most)
            continue
        if least is not None:
            mask &= units >= least
        if most is not None:
            mask &= units <= most
    return np.flatnonzero(mask)


def _floor(table: Table, query: SearchQuery, plan: Plan, found: np.ndarray) -> Estimate:
    """The least ``plan`` can cost: what it must read (``found``: the places it returns)."""
    if plan.kind == "scan":
        sizes = table.item_bytes if plan.index is None else table.entry_bytes[plan.index]
        reads, total = len(sizes), int(sizes.sum(dtype=np.int64))
    elif plan.kind == "sorted" and plan.index is not None:
        index = query.table.index(plan.index)
        assert isinstance(index, SortedIndex)
        keys = index.key_range(query)
        units = table.columns[index.attribute].units  # type: ignore[attr-defined]
        inside = np.flatnonzero((units >= keys[0]) & (units <= keys[1])) if keys else np.zeros(0, np.int64)
        reads, total = len(inside), int(table.entry_bytes[plan.index][inside].sum(dtype=np.int64))
    else:  # a Z plan may skip stretches of its spans, never an entry it returns
        sizes = table.item_bytes if plan.index is None else table.entry_bytes[plan.index]
        reads, total = len(found), int(sizes[found].sum(dtype=np.int64))
    queries = max(len(plan.spans), math.ceil(total / MAX_PAGE_BYTES))
    return Estimate(reads, len(found), queries, total / 8192)


@dataclass
class Measured:
    """One search: the chosen plan's run, and what each candidate reads (run, or a floor above the
    chosen plan's cost), by its description."""

    query: SearchQuery
    chosen: Run
    candidates: dict[str, Estimate]
    floors: frozenset[str]  # the candidates whose figures are a floor, not a run

    def costs(self, model: CostModel) -> dict[str, float]:
        return {label: model.cost(figures) for label, figures in self.candidates.items()}

    def within(self, model: CostModel, margin: float = 1.1) -> bool:
        return self.chosen.cost(model) <= margin * min(self.costs(model).values())

    def cheapest(self, model: CostModel) -> str:
        costs = self.costs(model)
        return min(costs, key=costs.__getitem__)

    def of_kind(self, kind: str) -> Estimate | None:
        """The figures of this search's candidate of one kind (e.g. ``z-between``), if it had one."""
        return next((e for label, e in self.candidates.items() if label.startswith(kind + " ")), None)


def measure(searcher: Searcher, table: Table, query: SearchQuery, limit: int) -> Measured:
    """Run ``query`` as chosen and every candidate that could be cheaper; stop on any wrong answer."""
    model, expected = searcher.model, brute_force(table, query)
    chosen = search(searcher, query, limit)
    candidates, floors = {chosen.plan: chosen.figures}, set()
    for plan, _ in searcher.plan(query).ranked:
        label = describe(plan)
        if label in candidates:
            continue
        floor = _floor(table, query, plan, expected)
        if model.cost(floor) >= chosen.cost(model):
            candidates[label] = floor
            floors.add(label)
            continue
        run = search(searcher, query, limit, only=_only(label))
        _check(query, run, expected)
        candidates[label] = run.figures
    _check(query, chosen, expected)
    return Measured(query, chosen, candidates, frozenset(floors))


def _only(label: str) -> Callable[[Plan], bool]:
    return lambda plan: describe(plan) == label


def _check(query: SearchQuery, run: Run, expected: np.ndarray) -> None:
    if not np.array_equal(run.rows, expected):
        bounds: dict[str, Any] = dict(query.bounds)
        raise AssertionError(
            f"{run.plan} found {len(run.rows)} places, brute force {len(expected)}: {bounds}"
        )
