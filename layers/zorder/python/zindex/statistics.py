"""Statistics the optimizer plans from: per index, what its keys look like and what an entry weighs.

* Every index: an equi-depth histogram of the keys its kind counts (a Z index: the addresses; a sorted
  index: the attribute's keys), so how many entries a Query of a key range reads; marginals when the
  kind has them (a Z index: one histogram per attribute, how much of a region a bound keeps); its entry
  count and mean entry size by DynamoDB's rules (read units per Query).
* The table: its item count and mean size (what a Scan of the table reads).

Built from the table's items by ``analyze`` (``tatami zindex analyze``, and after a backfill or a sample
load), stored as one item per index. Statistics only steer cost, never results: a search with stale
or missing statistics is exact, only dearer.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from zindex.equidepth import EquiDepth
from zindex.errors import StatisticsError, UnencodableError
from zindex.keys import index_keys, indexable
from zindex.sizes import item_size

if TYPE_CHECKING:
    from zindex.spec import Index, IndexedTable

__all__ = ["IndexStats", "Statistics", "build", "dumps", "entry_bytes", "loads"]

FORMAT = "zindex.statistics/1"
MAX_GROUPS = 32_768  # address groups per Z index: ~200 KB compressed, inside one 400 KB item
MARGINAL_GROUPS = 256


@dataclass(frozen=True)
class IndexStats:
    """One index: its keys' histogram, per-attribute marginals (Z), entry count and size."""

    keys: EquiDepth
    marginals: tuple[EquiDepth, ...]  # as the kind samples them (a Z index: one per attribute)
    entry_bytes: float


@dataclass(frozen=True)
class Statistics:
    """What ``analyze`` saw: the table (items, mean item size) and each index."""

    items: int
    item_bytes: float
    indexes: Mapping[str, IndexStats]

    def scaled(self, factor: float) -> Statistics:
        """The same shape for a table ``factor`` times larger (statistics of a sample, for advice).

        >>> from zindex.equidepth import EquiDepth
        >>> s = Statistics(10, 50.0, {"ix": IndexStats(EquiDepth((1, 5), 5, 10, 9), (), 80.0)})
        >>> s.scaled(3).indexes["ix"].keys.count(0, 9), s.scaled(3).items
        (30.0, 30)
        """

        def grow(h: EquiDepth) -> EquiDepth:
            return EquiDepth(h.firsts, h.depth * factor, round(h.items * factor), h.last)

        indexes = {
            name: IndexStats(grow(s.keys), tuple(grow(m) for m in s.marginals), s.entry_bytes)
            for name, s in self.indexes.items()
        }
        return Statistics(round(self.items * factor), self.item_bytes, indexes)

    @classmethod
    def uniform(cls, table: IndexedTable, items: int = 100_000) -> Statistics:
        """Every key equally likely (no statistics yet): plans stay exact, only their cost is a guess."""
        found: dict[str, IndexStats] = {}
        for index in table.indexes:
            bits, marginal_bits = index.key_bits(table)
            marginals = tuple(EquiDepth.uniform(b, items) for b in marginal_bits)
            found[index.name] = IndexStats(EquiDepth.uniform(bits, items), marginals, 100.0)
        return cls(items, 200.0, found)


def entry_bytes(table: IndexedTable, item: Mapping[str, Any], keys: Mapping[str, Any], index: Index) -> float:
    """Bytes of an item's entry in one GSI: the table key, the index keys and the projection."""
    names = (*table.key, *index.written, *index.entry_key, *table.projection)
    merged = {**item, **keys}
    return item_size({n: merged[n] for n in dict.fromkeys(names) if merged.get(n) is not None})


def build(
    table: IndexedTable, items: Iterable[Mapping[str, Any]], max_groups: int = MAX_GROUPS
) -> Statistics:
    """Statistics of ``table`` from its items (plain Python values, as a Scan deserialises them).

    >>> from zorder import UInt
    >>> from zindex import Attribute, IndexedTable, ZIndex
    >>> t = IndexedTable("T", ("id",), (Attribute("a", UInt(8)), Attribute("b", UInt(8))),
    ...                  (ZIndex("ix", ("a", "b"), 2),))
    >>> s = build(t, [{"id": str(a), "a": a, "b": 7} for a in range(100)])
    >>> s.items, s.indexes["ix"].keys.items, s.indexes["ix"].marginals[0].count(0, 49)
    (100, 100, 50.0)
    """
    count, total_bytes = 0, 0
    keys: dict[str, list[int]] = {i.name: [] for i in table.indexes}
    marginals: dict[str, list[list[int]]] = {
        i.name: [[] for _ in i.key_bits(table)[1]] for i in table.indexes
    }
    entry_total = dict.fromkeys(keys, 0.0)
    for item in items:
        if table.is_reserved(item):
            continue
        count += 1
        total_bytes += item_size(item)
        if not indexable(table, item):
            continue
        try:
            written = index_keys(table, item)
        except UnencodableError:
            continue
        for index in table.indexes:
            entry_total[index.name] += entry_bytes(table, item, written, index)
            key, marginal = index.sample(table, item, written)
            keys[index.name].append(key)
            for column, value in zip(marginals[index.name], marginal, strict=True):
                column.append(value)
    indexes = {}
    for index in table.indexes:
        found = sorted(keys[index.name])
        columns = tuple(EquiDepth.of(sorted(c), MARGINAL_GROUPS) for c in marginals[index.name])
        size = entry_total[index.name] / len(found) if found else 100.0
        indexes[index.name] = IndexStats(EquiDepth.of(found, max_groups), columns, size)
    return Statistics(count, total_bytes / count if count else 200.0, indexes)


def _histogram(h: EquiDepth) -> dict[str, Any]:
    deltas = [b - a for a, b in zip((0, *h.firsts), h.firsts, strict=False)]
    return {"deltas": deltas, "depth": h.depth, "items": h.items, "last": h.last}


def _unhistogram(data: Mapping[str, Any]) -> EquiDepth:
    firsts, total = [], 0
    for delta in data["deltas"]:
        total += delta
        firsts.append(total)
    return EquiDepth(tuple(firsts), int(data["depth"]), int(data["items"]), int(data["last"]))


def dumps(table: IndexedTable, stats: Statistics, index: str) -> bytes:
    """Compact bytes of one index's statistics (deltas, zlib-compressed JSON) for its statistics item."""
    own = stats.indexes[index]
    document = {
        "format": FORMAT,
        "declaration": json.loads(table.named("").to_json()),
        "index": index,
        "items": stats.items,
        "item_bytes": stats.item_bytes,
        "entry_bytes": own.entry_bytes,
        "keys": _histogram(own.keys),
        "marginals": [_histogram(m) for m in own.marginals],
    }
    return zlib.compress(json.dumps(document, separators=(",", ":")).encode(), 9)


def loads(table: IndexedTable, parts: Mapping[str, bytes]) -> Statistics:
    """Statistics from each index's bytes; any index missing or built for another declaration is refused."""
    found: dict[str, IndexStats] = {}
    items, item_bytes = 0, 200.0
    declaration = json.loads(table.named("").to_json())
    for index in table.indexes:
        if index.name not in parts:
            raise StatisticsError(f"no statistics for index {index.name} yet; run `tatami zindex analyze`")
        try:
            document = json.loads(zlib.decompress(parts[index.name]))
            if document.get("format") != FORMAT or document.get("declaration") != declaration:
                raise StatisticsError(f"statistics of {index.name} were built for another declaration")
            marginals = tuple(_unhistogram(m) for m in document["marginals"])
            found[index.name] = IndexStats(
                _unhistogram(document["keys"]), marginals, float(document["entry_bytes"])
            )
            items, item_bytes = int(document["items"]), float(document["item_bytes"])
        except (zlib.error, ValueError, KeyError, TypeError) as exc:
            raise StatisticsError(f"unreadable statistics of {index.name}: {exc}") from exc
    return Statistics(items, item_bytes, found)
