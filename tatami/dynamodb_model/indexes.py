"""A global secondary index of the model: its base entries in key order, and the entries written since.

DynamoDB keeps an index's entries ordered by its partition key's value, then its sort key (numbers
numerically, strings and binaries by unsigned bytes), then in an order of its own (see
:mod:`tatami.dynamodb_model.semantics`: DynamoDB Local's hash of the table key, or the load order).

The base entries are one array of row numbers sorted once (``np.lexsort``); a Query finds its range by
binary search, probing one row at a time, within the partition key's block. Entries written after the
load (the *extras*: an item put, or updated by the maintainer) sit in a sorted list per partition key
and are merged into the stream of base entries they belong between; the base rows they replace are
skipped. Positions compare as *composites*: per key attribute, the column's order key and the value.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right, insort
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Protocol

import numpy as np

from tatami.dynamodb_model.columns import Column

__all__ = ["IndexSchema", "Keyed", "SortedEntries", "natural_key"]

_MAX_BLOCKS = 1 << 20  # partition keys whose blocks are found by one searchsorted (more: bisect)


@dataclass(frozen=True)
class IndexSchema:
    """A GSI as CreateTable declares it: key attributes and the projection (None: ALL)."""

    name: str
    hash: str
    range: str | None = None
    projection: tuple[str, ...] | None = None

    def key_attributes(self) -> tuple[str, ...]:
        return (self.hash,) if self.range is None else (self.hash, self.range)


def natural_key(value: Any) -> Any:
    """A value as Python orders it like DynamoDB does (numbers exactly; strings by code point, which
    is UTF-8's byte order; binaries by bytes)."""
    if isinstance(value, int | float | Decimal) and not isinstance(value, bool):
        return Fraction(Decimal(value))
    return value


class Keyed(Protocol):
    """What an index asks of its table."""

    @property
    def key(self) -> tuple[str, ...]: ...

    @property
    def columns(self) -> Mapping[str, Column]: ...

    @property
    def rows(self) -> int: ...

    def row_of(self, key: tuple[Any, ...]) -> int | None: ...

    def tie_keys(self, rows: np.ndarray) -> np.ndarray: ...

    def tie_key(self, row: int) -> int: ...

    def tie_of(self, key: tuple[Any, ...]) -> int: ...


class _Values:
    """A base entry's key values, read only when a comparison gets that far (its order keys and tie
    key almost always decide)."""

    def __init__(self, index: SortedEntries, row: int) -> None:
        self.index, self.row = index, row

    def get(self) -> tuple[Any, ...]:
        names = (*self.index.names, *self.index.table.key)
        return tuple(natural_key(self.index.columns[n].value_at(self.row)) for n in names)

    def __eq__(self, other: object) -> bool:
        return self.get() == (other.get() if isinstance(other, _Values) else other)

    def __lt__(self, other: Any) -> bool:
        return self.get() < (other.get() if isinstance(other, _Values) else other)

    def __gt__(self, other: Any) -> bool:
        return self.get() > (other.get() if isinstance(other, _Values) else other)

    __hash__ = None  # type: ignore[assignment]


class SortedEntries:
    """One GSI over a table's base rows, and its extras. Entries with equal index keys are ordered by
    the table's *tie key* of their table key (DynamoDB Local's hash of it, or the row number)."""

    def __init__(self, schema: IndexSchema, table: Keyed) -> None:
        self.schema, self.table, self.columns = schema, table, table.columns
        self.names = schema.key_attributes()
        self.order = self._sorted()
        self._blocks()
        self.extras: dict[Any, list[tuple[tuple[Any, ...], tuple[Any, ...]]]] = {}
        self.extra_of: dict[tuple[Any, ...], tuple[Any, tuple[Any, ...]]] = {}

    def _sorted(self) -> np.ndarray:
        if not all(name in self.columns for name in self.names):
            return np.zeros(0, dtype=np.int64)
        count = self.table.rows
        held = np.ones(count, dtype=bool)
        for name in self.names:
            held &= self.columns[name].present(np.arange(count))
        order = np.flatnonzero(held)
        # sort by the last key first, then stably by each key before it (what np.lexsort does), a
        # key's pass skipped when the order already sorts it: the rows are in order, so a tie by row
        # number needs none, nor a Z index's bucket once its addresses are sorted
        for keys in (self.table.tie_keys, *(self.columns[n].keys for n in reversed(self.names))):
            found = keys(order)
            if np.any(found[1:] < found[:-1]):
                order = order[np.argsort(found, kind="stable")]
        return order.astype(np.uint32) if count < 1 << 32 else order

    def _blocks(self) -> None:
        """Each partition key's first position (when there are few enough to keep)."""
        self.block_first: np.ndarray | None = None
        if not len(self.order):
            self.block_first, self.block_keys = np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.int64)
            return
        hashes = self.columns[self.schema.hash].keys(self.order)
        starts = np.flatnonzero(np.concatenate(([True], hashes[1:] != hashes[:-1])))
        if len(starts) <= _MAX_BLOCKS:
            self.block_first = np.append(starts, len(self.order))
            self.block_keys = hashes[starts]

    def composite_at(self, position: int) -> tuple[Any, ...]:
        row = int(self.order[position])
        keys = [self.columns[n].key_at(row) for n in self.names]
        return (*keys, self.table.tie_key(row), _Values(self, row))

    def composite_of(self, item: Mapping[str, Any]) -> tuple[Any, ...]:
        """Where an item's entry sorts: its index keys' order keys, its tie key, then the values of its
        index keys and table key (which tell apart written items between the same stored values)."""
        keys = []
        for name in self.names:
            column = self.columns.get(name)
            key = column.order_key(item[name]) if column is not None else None
            keys.append(Fraction(-1) if key is None else key)
        key = tuple(item[k] for k in self.table.key)
        values = tuple(natural_key(item[n]) for n in (*self.names, *self.table.key))
        return (*keys, self.table.tie_of(key), values)

    def block(self, hash_value: Any) -> tuple[int, int]:
        """The base positions of one partition key."""
        column = self.columns.get(self.schema.hash)
        if column is None or not len(self.order):
            return 0, 0
        low, high = column.lower(hash_value), column.upper(hash_value)
        if low is None or low > high:
            return 0, 0
        if self.block_first is not None:
            at = int(np.searchsorted(self.block_keys, low))
            found = at < len(self.block_keys) and self.block_keys[at] <= high
            return (int(self.block_first[at]), int(self.block_first[at + 1])) if found else (0, 0)
        keyed = column.key_at
        first = bisect_left(range(len(self.order)), low, key=lambda p: keyed(int(self.order[p])))
        last = bisect_right(range(len(self.order)), high, key=lambda p: keyed(int(self.order[p])))
        return first, last

    def range_in(self, first: int, last: int, low: Any, high: Any) -> tuple[int, int]:
        """The positions of ``first..last`` (one partition) whose sort key lies in ``low..high`` (order
        keys, None: open)."""
        if self.schema.range is None:
            return first, last
        keyed, order = self.columns[self.schema.range].key_at, self.order
        span = range(first, last)
        start = first if low is None else bisect_left(span, low, key=lambda p: keyed(int(order[p]))) + first
        end = last if high is None else bisect_right(span, high, key=lambda p: keyed(int(order[p]))) + first
        return start, max(start, end)

    def after(self, first: int, last: int, composite: tuple[Any, ...]) -> int:
        """The first position of ``first..last`` whose entry sorts after ``composite``."""
        return first + bisect_right(range(first, last), composite, key=self.composite_at)

    def insertion(self, first: int, last: int, composite: tuple[Any, ...]) -> int:
        """The base position an extra entry sorts before."""
        return first + bisect_left(range(first, last), composite, key=self.composite_at)

    def add(self, key: tuple[Any, ...], item: Mapping[str, Any]) -> None:
        if any(item.get(name) is None for name in self.schema.key_attributes()):
            return
        composite = self.composite_of(item)
        partition = natural_key(item[self.schema.hash])
        insort(self.extras.setdefault(partition, []), (composite, key))
        self.extra_of[key] = (partition, composite)

    def discard(self, key: tuple[Any, ...]) -> None:
        if key in self.extra_of:
            partition, composite = self.extra_of.pop(key)
            self.extras[partition].remove((composite, key))
