"""One table of the model: its key, its GSIs, the base rows loaded as columns, and the items written since.

The base rows are loaded once (``load``: columns, a few bytes per attribute per row); everything a
client writes afterwards (the maintainer's keys, the engine's statistics and status items, new items)
is an *overlay* of Python dicts by table key, and the base row it replaces is *shadowed*: skipped by
every read. Sizes by DynamoDB's rules are computed once per base row, for the item and for each index
entry (the table key, the index's keys and what it projects).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from tatami.dynamodb_model.columns import Column
from tatami.dynamodb_model.hashing import key_hash, key_hashes
from tatami.dynamodb_model.indexes import IndexSchema, SortedEntries
from tatami.dynamodb_model.semantics import Semantics
from tatami.dynamodb_model.tokens import Unsupported

__all__ = ["Table"]

_CHUNK = 1 << 22  # rows whose sizes are summed at once (bounds the temporary arrays)

Key = tuple[Any, ...]


class Table:
    """A table's declaration (``key``: hash then range attribute; ``types``: the key attributes'
    DynamoDB types) and its contents."""

    def __init__(
        self,
        name: str,
        key: tuple[str, ...],
        indexes: Sequence[IndexSchema],
        semantics: Semantics,
    ) -> None:
        self.name, self.key, self.schemas, self.semantics = name, key, tuple(indexes), semantics
        self.columns: dict[str, Column] = {}
        self.rows = 0
        self.overlay: dict[Key, dict[str, Any]] = {}
        self.shadowed: set[int] = set()
        self._shadowed: np.ndarray | None = None
        self._rows_by_key: dict[Key, int] | None = None
        self.item_bytes = np.zeros(0, dtype=np.uint32)
        self.entry_bytes: dict[str, np.ndarray] = {}
        self.indexes = {s.name: SortedEntries(s, self) for s in self.schemas}
        self._scan_order: tuple[np.ndarray, np.ndarray] | None = None
        self._key_hashes: np.ndarray | None = None

    # --- the base rows ------------------------------------------------------------------------------
    def load(self, columns: Mapping[str, Column]) -> None:
        """Set the base rows (once, into an empty table): one column per attribute, all of one length."""
        if self.rows or self.overlay:
            raise Unsupported(f"{self.name}: base rows are loaded once, into an empty table")
        lengths = {c.rows for c in columns.values()}
        if len(lengths) != 1 or any(k not in columns for k in self.key):
            raise Unsupported(f"{self.name}: columns of one length, the key among them ({sorted(columns)})")
        self.columns.update(columns)
        self.rows = lengths.pop()
        self.item_bytes = self._bytes(self.columns)
        self.indexes = {s.name: SortedEntries(s, self) for s in self.schemas}
        self.entry_bytes = {s.name: self._bytes(self.entry_names(s)) for s in self.schemas}

    def entry_names(self, schema: IndexSchema) -> tuple[str, ...]:
        """The attributes an index entry holds: the table key, the index keys, the projection."""
        projected = self.columns if schema.projection is None else schema.projection
        return tuple(dict.fromkeys((*self.key, *schema.key_attributes(), *projected)))

    def _bytes(self, names: Iterable[str]) -> np.ndarray:
        """Each base row's bytes over ``names`` (an attribute counts its name once present)."""
        found = np.zeros(self.rows, dtype=np.uint32)
        for start in range(0, self.rows, _CHUNK):
            rows = np.arange(start, min(start + _CHUNK, self.rows))
            total = np.zeros(len(rows), dtype=np.int64)
            for name in names:
                if name in self.columns:
                    column, present = self.columns[name], self.columns[name].present(rows)
                    sizes = len(name.encode()) + column.sizes(rows)
                    total += sizes if present.all() else np.where(present, sizes, 0)
            found[start : start + len(rows)] = total
        return found

    def base_items(
        self, rows: np.ndarray, names: Collection[str] | None = None, wire: bool = False
    ) -> list[dict[str, Any]]:
        """Base rows as items of Python values (or as the client returns them: ``wire``), holding
        ``names`` only when given."""
        chosen = [n for n in (self.columns if names is None else names) if n in self.columns]
        values = [self.columns[n].wire(rows) if wire else self.columns[n].values(rows) for n in chosen]
        return [
            {n: v[i] for n, v in zip(chosen, values, strict=True) if v[i] is not None}
            for i in range(len(rows))
        ]

    def shadowed_rows(self) -> np.ndarray:
        if self._shadowed is None:
            self._shadowed = np.array(sorted(self.shadowed), dtype=np.int64)
        return self._shadowed

    def live(self, rows: np.ndarray) -> np.ndarray:
        """``rows`` without those an overlay item replaced."""
        return rows[~np.isin(rows, self.shadowed_rows())] if self.shadowed else rows

    # --- orders -------------------------------------------------------------------------------------
    def tie_keys(self, rows: np.ndarray) -> np.ndarray:
        """What orders base rows whose index keys are equal: DynamoDB Local's hash of their partition
        key, or their row number (see :mod:`tatami.dynamodb_model.semantics`)."""
        if not self.semantics.hash_order:
            return rows.astype(np.uint64)
        return np.asarray(self._hashes()[rows])

    def tie_key(self, row: int) -> int:
        return int(self._hashes()[row]) if self.semantics.hash_order else row

    def _hashes(self) -> np.ndarray:
        """Every base row's key hash (computed once: DynamoDB Local's order is for tables it can hold)."""
        if self._key_hashes is None:
            self._key_hashes = key_hashes(self.columns[self.key[0]].values(np.arange(self.rows)))
        return self._key_hashes

    def tie_of(self, key: Key) -> int:
        """The tie key of a written item: its hash, or its base row's number (past the last row when
        it has none)."""
        if self.semantics.hash_order:
            return key_hash(key[0])
        row = self.row_of(key)
        return self.rows if row is None else row

    def scan_order(self) -> tuple[np.ndarray, np.ndarray]:
        """The base rows in DynamoDB Local's Scan order, and their hashes (for segments)."""
        if self._scan_order is None:
            hashes = self._hashes()
            order = np.argsort(hashes, kind="stable")
            self._scan_order = order, hashes[order]
        return self._scan_order

    # --- items by key -------------------------------------------------------------------------------
    def key_of(self, item: Mapping[str, Any]) -> Key:
        missing = [k for k in self.key if item.get(k) is None]
        if missing:
            raise Unsupported(f"{self.name}: an item or key without {missing}")
        return tuple(item[k] for k in self.key)

    def row_of(self, key: Key) -> int | None:
        """The base row holding ``key`` (None: none does, or an overlay item replaced it)."""
        if not self.rows:
            return None
        if len(self.key) == 1:
            row = self.columns[self.key[0]].find(key[0])
        else:
            if self._rows_by_key is None:
                everything = np.arange(self.rows)
                columns = [self.columns[k].values(everything) for k in self.key]
                self._rows_by_key = {k: r for r, k in enumerate(zip(*columns, strict=True))}
            row = self._rows_by_key.get(key)
        return None if row is None or row in self.shadowed else row

    def get(self, key: Key) -> dict[str, Any] | None:
        if key in self.overlay:
            return self.overlay[key]
        row = self.row_of(key)
        return None if row is None else self.base_items(np.array([row]))[0]

    def replace(self, key: Key, item: Mapping[str, Any] | None) -> None:
        """Make ``item`` the table's item at ``key`` (None: delete it)."""
        row = self.row_of(key)
        if row is not None:
            self.shadowed.add(row)
            self._shadowed = None
        if key in self.overlay:
            for index in self.indexes.values():
                index.discard(key)
            del self.overlay[key]
        if item is not None:
            self.overlay[key] = dict(item)
            for index in self.indexes.values():
                index.add(key, item)
