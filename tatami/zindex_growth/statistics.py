"""The statistics ``tatami zindex analyze`` would build (``zindex.statistics.build``), from the model's
columns at once, and what refreshing them costs on DynamoDB.

``build`` reads every item as a dict; at 10^8 that is hours. The same figures come from the columns:
each histogram keeps every ``depth``-th key in order, which for a Z index is every ``depth``-th entry of
its GSI (already in address order), for a marginal a cumulative count of its keys, for a sorted index
its sorted keys. ``tests/unit/tatami/zindex_growth/test_statistics.py`` holds them byte for byte equal
to ``build``'s.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tatami.dynamodb_model.table import Table
from tatami.zindex_growth.keys import keys_of, numbers
from zindex import IndexedTable, SortedIndex, ZIndex
from zindex.equidepth import EquiDepth
from zindex.plan import MAX_PAGE_BYTES
from zindex.sizes import item_size, read_units, write_units
from zindex.statistics import MARGINAL_GROUPS, MAX_GROUPS, IndexStats, Statistics, dumps

__all__ = ["Refresh", "refresh_cost", "statistics"]


def _every(sorted_keys: np.ndarray, groups: int) -> EquiDepth:
    """``EquiDepth.of`` of keys already sorted (an array: its every depth-th key is all it keeps)."""
    if not len(sorted_keys):
        return EquiDepth((), 1, 0, 0)
    depth = max(1, -(-len(sorted_keys) // groups))
    return EquiDepth(tuple(sorted_keys[::depth].tolist()), depth, len(sorted_keys), int(sorted_keys[-1]))


def _counted(keys: np.ndarray, groups: int) -> EquiDepth:
    """``EquiDepth.of`` of unsorted small keys (a marginal's): every depth-th one, from their counts."""
    depth = max(1, -(-len(keys) // groups))
    cumulative = np.cumsum(np.bincount(keys.astype(np.int64)))
    firsts = np.searchsorted(cumulative, np.arange(0, len(keys), depth), side="right")
    return EquiDepth(tuple(firsts.tolist()), depth, len(keys), len(cumulative) - 1)


def _z(declaration: IndexedTable, table: Table, index: ZIndex, groups: int) -> IndexStats:
    order = table.indexes[index.name].order
    address = table.columns[index.address_attribute].keys
    depth = max(1, -(-len(order) // groups))
    firsts = address(order[::depth].astype(np.int64))
    keys = EquiDepth(tuple(firsts.tolist()), depth, len(order), int(address(order[-1:].astype(np.int64))[0]))
    marginals = tuple(
        _counted(keys_of(declaration, name, numbers(table.columns[name], 0, table.rows)), MARGINAL_GROUPS)  # type: ignore[arg-type]
        for name in index.attributes
    )
    return IndexStats(keys, marginals, float(table.entry_bytes[index.name].mean()))


def _sorted(declaration: IndexedTable, table: Table, index: SortedIndex, groups: int) -> IndexStats:
    column = table.columns[index.attribute]
    values = keys_of(declaration, index.attribute, numbers(column, 0, table.rows), saturate=False)  # type: ignore[arg-type]
    return IndexStats(_every(np.sort(values), groups), (), float(table.entry_bytes[index.name].mean()))


def statistics(declaration: IndexedTable, table: Table, groups: int = MAX_GROUPS) -> Statistics:
    """What ``analyze`` would store for ``table`` (every base row indexed, none written since;
    ``groups``: ``build``'s ``max_groups``)."""
    indexes = {}
    for index in declaration.indexes:
        if isinstance(index, ZIndex):
            indexes[index.name] = _z(declaration, table, index, groups)
        elif isinstance(index, SortedIndex):
            indexes[index.name] = _sorted(declaration, table, index, groups)
        else:
            raise ValueError(f"{index.name}: statistics of {index.kind} indexes are not built in bulk")
    return Statistics(table.rows, float(table.item_bytes.mean()), indexes)


@dataclass(frozen=True)
class Refresh:
    """What ``analyze`` costs on DynamoDB: a Scan of the table, then one statistics item per index."""

    bytes_by_index: dict[str, int]
    read_units: float
    write_units: int


def refresh_cost(declaration: IndexedTable, table: Table, built: Statistics) -> Refresh:
    """The Scan reads every item in 1 MB pages (half a unit per 4 KB of each); each index's statistics
    item is one write of its size."""
    total = int(table.item_bytes.sum(dtype=np.int64))
    pages = max(1, -(-total // MAX_PAGE_BYTES))
    scan = pages * read_units(1, total / pages)
    stored = {i.name: dumps(declaration, built, i.name) for i in declaration.indexes}
    writes = sum(
        write_units(item_size({**declaration.reserved_key(name), "statistics": data}))
        for name, data in stored.items()
    )
    return Refresh({name: len(data) for name, data in stored.items()}, scan, writes)
