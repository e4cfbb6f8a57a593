"""The three designs of :mod:`tatami.zindex_growth.costs` at one size, from the places in the model and
the searches measured on them."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from tatami.dynamodb_model.table import Table
from tatami.zindex_growth.costs import STORAGE_OVERHEAD_BYTES, Design
from tatami.zindex_growth.measure import Measured
from tatami.zindex_growth.writes import WriteCost
from zindex import IndexedTable, ZIndex
from zindex.sizes import item_size, read_units, write_units

__all__ = ["LATITUDE_SHARDS", "designs"]

LATITUDE_SHARDS = 4
MIX = ("new", "moved")  # a write: a new place or a moved one, as often (a rename costs less)


def _stored(table: Table, names: Sequence[str] | None = None) -> float:
    """Bytes of the table (``names`` None) or of a GSI, 100 bytes of overhead an item or entry."""
    sizes = table.item_bytes if names is None else table.entry_bytes[names[0]]
    return float(sizes.sum(dtype=np.int64)) + STORAGE_OVERHEAD_BYTES * len(sizes)


def _attribute_bytes(table: Table, name: str) -> float:
    """Mean bytes of one attribute over the base rows, its name included."""
    column = table.columns[name]
    rows = np.arange(min(table.rows, 1_000_000))
    return len(name) + float(column.sizes(rows).mean())


def _latitude_design(declaration: IndexedTable, table: Table, boxes: Sequence[Measured]) -> Design:
    """A GSI on latitude, sharded, written with the item: what it stores and reads (counted)."""
    keys = [w for i in declaration.indexes for w in i.written]
    shard = item_size({"lshard": f"by-latitude#{LATITUDE_SHARDS - 1}"})
    z = next(i for i in declaration.indexes if isinstance(i, ZIndex))
    entry = (
        float(table.entry_bytes[z.name].mean()) - sum(_attribute_bytes(table, k) for k in z.written) + shard
    )
    item = float(table.item_bytes.mean()) - sum(_attribute_bytes(table, k) for k in keys) + shard
    latitudes = np.sort(table.columns["latitude"].units)  # type: ignore[attr-defined]
    searches = []
    for measured in boxes:
        low, high = measured.query.bounds["latitude"]
        inside = np.searchsorted(latitudes, math.floor(high * 10**5), side="right") - np.searchsorted(
            latitudes, math.ceil(low * 10**5)
        )
        searches.append(LATITUDE_SHARDS * read_units(1, entry * inside / LATITUDE_SHARDS))
    storage = (item + entry + 2 * STORAGE_OVERHEAD_BYTES) * table.rows
    writes = (write_units(item) + write_units(entry)) / 2 + (write_units(item) + 2 * write_units(entry)) / 2
    return Design("single-attribute GSI (latitude)", storage, writes, float(np.mean(searches)))


def designs(
    declaration: IndexedTable, table: Table, boxes: Sequence[Measured], writes: Sequence[WriteCost]
) -> list[Design]:
    """The Z index as measured, the filtered BETWEEN on the same indexes, a single-attribute GSI."""
    storage = _stored(table) + sum(_stored(table, [i.name]) for i in declaration.indexes)
    per_kind = {w.kind: w.user_units + w.maintainer_units for w in writes}
    write = float(np.mean([per_kind[k] for k in MIX]))
    between = [m.of_kind("z-between") for m in boxes]
    return [
        Design("Z index (the engine)", storage, write, float(np.mean([m.chosen.rcu for m in boxes]))),
        Design("filtered BETWEEN", storage, write, float(np.mean([b.rcu for b in between if b is not None]))),
        _latitude_design(declaration, table, boxes),
    ]
