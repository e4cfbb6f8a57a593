"""Which indexes should a table have? Advice from a sample of its items and a file of typical searches.

Every plausible index is proposed at once (each kind proposes its own: a Z index over all the
attributes and one over each pair, a sorted index per attribute), the statistics of each built from
the sample and scaled to the table, and every search of the workload priced by the optimizer under
each index alone. Then indexes are added greedily, each time the one that lowers the workload's total
cost most, while it lowers it by more than ``min_gain``; each comes with what it costs to keep: its
storage and the write units every item write adds (a GSI entry is written with its item).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from zindex.kinds import KINDS
from zindex.optimizer import candidates
from zindex.plan import CostModel
from zindex.query import SearchQuery
from zindex.sizes import write_units
from zindex.spec import Index, IndexedTable
from zindex.statistics import build

__all__ = ["Advice", "Proposal", "advise", "proposals"]


@dataclass(frozen=True)
class Proposal:
    """One index the advice keeps, in the order it was added."""

    index: Index
    workload_cost: float  # the workload's total cost once this index is added
    best_for: int  # searches this index serves most cheaply among those kept
    storage_bytes: float
    write_units: int  # per item write, for this index's entry


@dataclass(frozen=True)
class Advice:
    scan_cost: float  # the workload with no index: every search a Scan of the table
    kept: tuple[Proposal, ...]
    searches: int


def proposals(table: IndexedTable) -> tuple[Index, ...]:
    """Every index worth pricing, as each kind proposes them (each with its own key attribute names,
    so they can coexist in one hypothetical table)."""
    return tuple(index for kind in KINDS.values() for index in kind.proposals(table))


def _costs(query: SearchQuery, stats: Any, model: CostModel) -> dict[str | None, float]:
    """The cheapest plan's cost on each index alone (None: a Scan of the table)."""
    best: dict[str | None, float] = {}
    for plan in candidates(query, stats, model):
        cost = model.cost(plan.estimate)
        best[plan.index] = min(cost, best.get(plan.index, float("inf")))
    return best


def workload_cost(indexes: Iterable[str], costs: Sequence[Mapping[str | None, float]]) -> float:
    """The workload's total cost when each search may use any of ``indexes`` or a Scan (None)."""
    chosen = list(indexes)
    return sum(min([c[None], *(c.get(i, float("inf")) for i in chosen)]) for c in costs)


def choose(
    names: Sequence[str], costs: Sequence[Mapping[str | None, float]], min_gain: float, max_indexes: int
) -> list[tuple[str, float]]:
    """Indexes to keep, each with the workload's cost once it (and those before it) is added.

    Greedy: add the index that lowers the cost most while it lowers it by more than ``min_gain`` of it.
    Greedy picks early an index that helps many searches a little, which later picks may make
    redundant, so each kept index is then dropped if the others do nearly as well without it, and the
    survivors are ordered again.

    >>> costs = [{None: 100, "x": 20, "y": 1}, {None: 100, "x": 20, "z": 1}]
    >>> choose(["x", "y", "z"], costs, 0.02, 4)
    [('y', 101), ('z', 2)]
    """
    picked: list[tuple[str, float]] = []
    left = list(names)
    while left and len(picked) < max_indexes:
        now = workload_cost([n for n, _ in picked], costs)
        totals = {n: workload_cost([*(p for p, _ in picked), n], costs) for n in left}
        name = min(left, key=totals.__getitem__)
        if now - totals[name] <= min_gain * now:
            break
        picked.append((name, totals[name]))
        left.remove(name)
    kept = [n for n, _ in picked]
    for name in list(kept):
        rest = [n for n in kept if n != name]
        with_it = workload_cost(kept, costs)
        if workload_cost(rest, costs) - with_it <= min_gain * with_it:
            kept = rest
    if len(kept) == len(picked):
        return picked
    return choose(kept, costs, min_gain, max_indexes)


def advise(
    table: IndexedTable,
    sample: Iterable[Mapping[str, Any]],
    table_items: int,
    workload: Sequence[Mapping[str, tuple[Any, Any]]],
    model: CostModel | None = None,
    min_gain: float = 0.02,
    max_indexes: int = 4,
) -> Advice:
    """Recommend indexes for ``workload`` (a list of search bounds) from a ``sample`` of the table's
    items, the table holding ``table_items`` items in all."""
    model = model or CostModel()
    hypothetical = IndexedTable(table.table, table.key, table.attributes, proposals(table), table.projection)
    items = list(sample)
    stats = build(hypothetical, items).scaled(table_items / max(len(items), 1))
    costs = [_costs(SearchQuery(hypothetical, bounds), stats, model) for bounds in workload]
    chosen = choose([i.name for i in hypothetical.indexes], costs, min_gain, max_indexes)
    names = [name for name, _ in chosen]
    best = [min(names, key=lambda n: c.get(n, float("inf"))) for c in costs] if names else []
    kept = []
    for name, total in chosen:
        own = stats.indexes[name]
        storage = own.keys.items * own.entry_bytes
        kept.append(
            Proposal(hypothetical.index(name), total, best.count(name), storage, write_units(own.entry_bytes))
        )
    return Advice(sum(c[None] for c in costs), tuple(kept), len(workload))
