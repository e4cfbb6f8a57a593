"""Which indexes should a table have? Advice from a sample of its items and a file of typical searches.

Every plausible index is proposed at once (each kind proposes its own: a Z index over all the
attributes and one over each pair, a sorted index per attribute), the statistics of each built from
the sample and scaled to the table, and every search of the workload priced by the optimizer under
each index alone. Then indexes are added greedily, each time the one that lowers the workload's total
cost most, while it lowers it by more than ``min_gain``; each comes with what it costs to keep: its
storage and the write units every item write adds (a GSI entry is written with its item).

Sizing (:func:`bucket_options`, :func:`bucket_bits`, :func:`shards_needed`): a Z index's writes land in
the bucket of the item written, so its busiest bucket takes that bucket's share of the writes, up to
three entry writes each (the user's write updates the entry, the maintainer's deletes and puts it); a
bucket is one partition key, so that must stay within what one partition takes (the caller passes
DynamoDB's 1,000 write units a second times the share it plans on). The fewest bucket bits that fit are
the advice: every bucket a box crosses is one more Query. A sorted index spreads its writes evenly over
its shards.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from zindex.kinds import KINDS, ZIndex
from zindex.optimizer import candidates
from zindex.plan import CostModel
from zindex.query import SearchQuery
from zindex.sizes import write_units
from zindex.spec import Index, IndexedTable
from zindex.statistics import IndexStats, build

__all__ = [
    "Advice",
    "Buckets",
    "Proposal",
    "advise",
    "bucket_bits",
    "bucket_options",
    "proposals",
    "shards_needed",
]


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


# --- sizing: bucket bits and shards from the table's size and write rate ----------------------------
ENTRY_WRITES_PER_ITEM_WRITE = 3  # at worst: the user's write updates the entry, the maintainer moves it


@dataclass(frozen=True)
class Buckets:
    """A Z index with ``bits`` bucket bits: its busiest bucket's share of the entries (and of the writes,
    which land where the items are) and its write units a second at the given rate."""

    bits: int
    busiest_share: float
    busiest_write_units: float
    fits: bool  # the busiest bucket stays within the partition's share it may use


def bucket_options(
    index: ZIndex, table: IndexedTable, stats: IndexStats, writes_per_second: float, partition_units: float
) -> list[Buckets]:
    """Every bucket bit count from 0 to 16 (or the address's bits), from the statistics' histogram of
    addresses; ``partition_units``: the write units a second one partition may take (its limit times
    the share of it a design may plan on)."""
    bits = table.schema(index.name).bits
    per_write = ENTRY_WRITES_PER_ITEM_WRITE * write_units(stats.entry_bytes)
    found = []
    for count in range(min(16, bits) + 1):
        shift = bits - count
        shares = [stats.keys.share(n << shift, ((n + 1) << shift) - 1) for n in range(1 << count)]
        busiest = max(shares) * writes_per_second * per_write
        found.append(Buckets(count, max(shares), busiest, busiest <= partition_units))
    return found


def bucket_bits(options: Sequence[Buckets]) -> Buckets:
    """The fewest bucket bits whose busiest bucket fits (each bucket a box crosses is one more Query,
    so more bits than that only cost reads); the most there are when none fits."""
    return next((o for o in options if o.fits), options[-1])


def shards_needed(stats: IndexStats, writes_per_second: float, partition_units: float) -> int:
    """A sorted index's shards: its writes spread evenly (a hash of the key), each within a partition.

    >>> from zindex.equidepth import EquiDepth
    >>> shards_needed(IndexStats(EquiDepth((), 1, 0, 0), (), 90.0), 1000, 800)
    4
    """
    per_write = ENTRY_WRITES_PER_ITEM_WRITE * write_units(stats.entry_bytes)
    return max(1, math.ceil(writes_per_second * per_write / partition_units))
