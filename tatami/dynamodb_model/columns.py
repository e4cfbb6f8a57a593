"""An attribute of a table's base rows, stored compactly: a column of a NumPy array, a few bytes a row.

A hundred million items as Python dicts would take about 40 GB; as columns they take a few bytes per
attribute. Each kind of column gives, for any rows: the Python values the client returns, whether the
attribute is present, its bytes by DynamoDB's size rules, and *order keys*: numbers that sort as
DynamoDB sorts the values (numbers numerically, strings and binaries by unsigned bytes), so that key
conditions are binary searches and filters are array comparisons. ``lower(value)`` and
``upper(value)`` turn a constant into the order-key bounds of ``>= value`` and ``<= value`` (None when
the constant is of another type: DynamoDB compares nothing across types).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from zindex.dynamojson import to_wire

__all__ = ["Binaries", "Column"]


class Column:
    """One attribute of every base row (subclasses store it); ``kind`` is its DynamoDB type."""

    kind = "S"

    def __init__(self, rows: int, present: np.ndarray | None = None) -> None:
        self.rows, self._present = rows, present

    def present(self, rows: np.ndarray) -> np.ndarray:
        return np.ones(len(rows), dtype=bool) if self._present is None else self._present[rows]

    def values(self, rows: np.ndarray) -> list[Any]:
        """The rows' values as Python values (None where absent)."""
        raise NotImplementedError

    def wire(self, rows: np.ndarray) -> list[dict[str, Any] | None]:
        """The rows' values as the low-level client returns them (``{"S": ...}``; None where absent)."""
        return [None if v is None else to_wire(v) for v in self.values(rows)]

    def keys(self, rows: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def key_at(self, row: int) -> int:
        """One row's order key (binary searches probe one row at a time)."""
        return int(self.keys(np.array([row]))[0])

    def value_at(self, row: int) -> Any:
        return self.values(np.array([row]))[0]

    def sizes(self, rows: np.ndarray) -> np.ndarray:
        """The values' bytes (the attribute's name is counted by the table)."""
        raise NotImplementedError

    def lower(self, value: Any) -> Any:
        """The order key from which values are ``>= value`` (None: ``value`` is of another type)."""
        raise NotImplementedError

    def upper(self, value: Any) -> Any:
        """The order key up to which values are ``<= value`` (None: ``value`` is of another type)."""
        raise NotImplementedError

    def order_key(self, value: Any) -> Any:
        """Where a value (of a row the columns do not hold) sorts among the order keys: its own key
        when a stored value may equal it, else a fraction between its neighbours' (None: another type)."""
        low, high = self.lower(value), self.upper(value)
        if low is None:
            return None
        return high if low <= high else Fraction(low + high, 2)

    def find(self, value: Any) -> int | None:
        """The row holding ``value`` (a key column's values are unique); None if no row does."""
        raise NotImplementedError

    def between(self, rows: np.ndarray, low: Any, high: Any) -> np.ndarray:
        """Rows present with ``low <= key <= high`` (either None: open on that side)."""
        keys, mask = self.keys(rows), self.present(rows)
        if low is not None:
            mask &= keys >= low
        if high is not None:
            mask &= keys <= high
        return mask


class Binaries(Column):
    """Binaries of ``width`` bytes (at most 8) held as unsigned integers: their byte order is numeric."""

    kind = "B"

    def __init__(self, numbers: np.ndarray, width: int, present: np.ndarray | None = None) -> None:
        super().__init__(len(numbers), present)
        if not 1 <= width <= 8:
            raise ValueError(f"binaries of {width} bytes: the model holds 1 to 8")
        self.numbers, self.width = numbers, width

    def values(self, rows: np.ndarray) -> list[Any]:
        present = self.present(rows).tolist()
        return [
            int(n).to_bytes(self.width) if p else None
            for n, p in zip(self.numbers[rows].tolist(), present, strict=True)
        ]

    def keys(self, rows: np.ndarray) -> np.ndarray:
        return np.asarray(self.numbers[rows])

    def key_at(self, row: int) -> int:
        return int(self.numbers[row])

    def sizes(self, rows: np.ndarray) -> np.ndarray:
        return np.where(self.present(rows), self.width, 0)

    def _bounds(self, value: Any) -> tuple[int, int] | None:
        """(lower, upper) order keys of ``>= value`` and ``<= value``, for any length of ``value``."""
        if not isinstance(value, bytes | bytearray):
            return None
        head = int.from_bytes(bytes(value[: self.width]).ljust(self.width, b"\0"))
        if len(value) < self.width:  # a stored value starting with ``value`` is longer, so greater
            return head, head - 1
        if len(value) > self.width:  # a stored value equal to its head is shorter, so smaller
            return head + 1, head
        return head, head

    def lower(self, value: Any) -> Any:
        found = self._bounds(value)
        return None if found is None else found[0]

    def upper(self, value: Any) -> Any:
        found = self._bounds(value)
        return None if found is None else found[1]

    def find(self, value: Any) -> int | None:
        low = self.lower(value)
        exact = low is not None and low == self.upper(value)
        found = np.flatnonzero(self.numbers == low) if exact else np.zeros(0, np.int64)
        return int(found[0]) if len(found) else None
