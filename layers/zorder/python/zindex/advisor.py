"""Which indexes should a table have? Advice from a sample of its items and a file of typical searches.

Every plausible index is proposed at once (a Z index over all the attributes, one over each pair, a
sorted index per attribute), the statistics of each built from the sample and scaled to the table, and
every search of the workload priced by the optimizer under each index alone. Then indexes are added
greedily, each time the one that lowers the workload's total cost most, while it lowers it by more
than ``min_gain``; each comes with what it costs to keep: its storage and the write units every item
write adds (a GSI entry is written with its item).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from zindex.optimizer import candidates
from zindex.plan import CostModel
from zindex.query import SearchQuery
from zindex.sizes import write_units
from zindex.spec import Index, IndexedTable, SortedIndex, ZIndex
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


def proposals(table: IndexedTable, bucket_bits: int = 8) -> tuple[Index, ...]:
    """Every index worth pricing: a Z index over all attributes and over each pair, a sorted index per
    attribute (each with its own key attribute names, so they can coexist in one hypothetical table)."""
    names = [a.name for a in table.attributes]
    groups = [tuple(names)] + ([tuple(p) for p in combinations(names, 2)] if len(names) > 2 else [])
    found: list[Index] = []
    for n, group in enumerate(groups):
        bits = sum(table.attribute(a).encoding.bits for a in group)
        found.append(ZIndex("z-" + "-".join(group), group, min(bucket_bits, bits), f"zb{n}", f"za{n}"))
    for n, name in enumerate(names):
        found.append(SortedIndex(f"by-{name}", name, 4, f"zs{n}"))
    return tuple(found)


def _costs(query: SearchQuery, stats: Any, model: CostModel) -> dict[str | None, float]:
    """The cheapest plan's cost on each index alone (None: a Scan of the table)."""
    best: dict[str | None, float] = {}
    for plan in candidates(query, stats, model):
        cost = model.cost(plan.estimate)
        best[plan.index] = min(cost, best.get(plan.index, float("inf")))
    return best


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
    current = [c[None] for c in costs]
    kept: list[Proposal] = []
    left = list(hypothetical.indexes)
    while left and len(kept) < max_indexes:
        totals = {
            i.name: sum(min(now, c.get(i.name, now)) for now, c in zip(current, costs, strict=True))
            for i in left
        }
        index = min(left, key=lambda i: totals[i.name])
        if sum(current) - totals[index.name] <= min_gain * sum(current):
            break
        current = [min(now, c.get(index.name, now)) for now, c in zip(current, costs, strict=True)]
        own = stats.indexes[index.name]
        kept.append(
            Proposal(
                index, totals[index.name], 0, own.keys.items * own.entry_bytes, write_units(own.entry_bytes)
            )
        )
        left.remove(index)
    best_for = (
        [min(kept, key=lambda p: c.get(p.index.name, float("inf"))).index.name for c in costs] if kept else []
    )
    kept = [
        Proposal(p.index, p.workload_cost, best_for.count(p.index.name), p.storage_bytes, p.write_units)
        for p in kept
    ]
    return Advice(sum(c[None] for c in costs), tuple(kept), len(workload))
