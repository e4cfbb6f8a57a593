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

import math
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["Binaries", "Column", "Formatted", "Numbers", "Texts", "number_sizes"]

_POWERS = np.array([10**k for k in range(19)], dtype=np.uint64)


def number_sizes(units: np.ndarray, scale: int = 0) -> np.ndarray:
    """Bytes of numbers held as integers of ``10**-scale``, by ``zindex.sizes.number_size``'s rule
    (digit pairs aligned on the decimal point, plus one, plus one if negative; zero: one byte).

    >>> number_sizes(np.array([0, 7, 55, 1200, -356895, 8336599]), scale=1).tolist()
    [1, 2, 3, 3, 6, 5]
    """
    magnitude = np.abs(units.astype(np.int64)).astype(np.uint64)
    digits = np.searchsorted(_POWERS, magnitude, side="right").astype(np.int64)
    trailing = np.zeros(len(units), dtype=np.int64)
    rest = magnitude.copy()
    for _ in range(18):
        zero = (rest % 10 == 0) & (rest != 0)
        if not zero.any():
            break
        trailing += zero
        rest = np.where(zero, rest // 10, rest)
    lowest, top = trailing - scale, digits - 1 - scale  # positions of the last and first digit
    sizes = top // 2 - lowest // 2 + 2 + (units < 0)
    return np.where(magnitude == 0, 1, sizes).astype(np.int64)


class Column:
    """One attribute of every base row (subclasses store it); ``kind`` is its DynamoDB type."""

    kind = "S"

    def __init__(self, rows: int, present: np.ndarray | None = None) -> None:
        self.rows, self._present = rows, present

    def present(self, rows: np.ndarray) -> np.ndarray:
        return np.ones(len(rows), dtype=bool) if self._present is None else self._present[rows]

    def values(self, rows: np.ndarray) -> list[Any]:
        """The rows' values as the client returns them (None where absent)."""
        raise NotImplementedError

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


class Numbers(Column):
    """Numbers held as integers of ``10**-scale`` (coordinates with 4 decimals: ``scale=4``)."""

    kind = "N"

    def __init__(self, units: np.ndarray, scale: int = 0, present: np.ndarray | None = None) -> None:
        super().__init__(len(units), present)
        self.units, self.scale = units, scale
        self._sizes: np.ndarray | None = None

    def values(self, rows: np.ndarray) -> list[Any]:
        present = self.present(rows)
        units = self.units[rows].tolist()
        if not self.scale:
            return [u if p else None for u, p in zip(units, present.tolist(), strict=True)]
        return [_decimal(u, self.scale) if p else None for u, p in zip(units, present.tolist(), strict=True)]

    def keys(self, rows: np.ndarray) -> np.ndarray:
        return np.asarray(self.units[rows])

    def key_at(self, row: int) -> int:
        return int(self.units[row])

    def sizes(self, rows: np.ndarray) -> np.ndarray:
        if self._sizes is None:  # once per column: most rows are read many times
            self._sizes = number_sizes(self.units, self.scale).astype(np.uint8)
        return np.where(self.present(rows), self._sizes[rows], 0)

    def _scaled(self, value: Any) -> Decimal | None:
        if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
            return None
        return Decimal(value).scaleb(self.scale)

    def lower(self, value: Any) -> Any:
        scaled = self._scaled(value)
        return None if scaled is None else math.ceil(scaled)

    def upper(self, value: Any) -> Any:
        scaled = self._scaled(value)
        return None if scaled is None else math.floor(scaled)

    def order_key(self, value: Any) -> Any:
        scaled = self._scaled(value)
        return None if scaled is None else Fraction(scaled)

    def find(self, value: Any) -> int | None:
        low = self.lower(value)
        found = np.flatnonzero(self.units == low) if low == self.upper(value) else np.zeros(0, np.int64)
        return int(found[0]) if len(found) else None


def _decimal(units: int, scale: int) -> Decimal:
    """``units * 10**-scale`` as DynamoDB returns it: integers without exponent, no trailing zeros.

    >>> _decimal(356800, 4), _decimal(1000000, 4)
    (Decimal('35.68'), Decimal('100'))
    """
    number = Decimal(units).scaleb(-scale)
    return number.quantize(1) if number == number.to_integral_value() else number.normalize()


class Texts(Column):
    """Strings as codes into a vocabulary (code -1: absent); many rows may share one string."""

    def __init__(self, codes: np.ndarray, vocabulary: Sequence[str]) -> None:
        super().__init__(len(codes))
        self.codes, self.vocabulary = codes, list(vocabulary)
        self.sorted = sorted(set(self.vocabulary))
        rank = {text: n for n, text in enumerate(self.sorted)}
        # one entry per code, and a last one for code -1 (absent)
        self._keys = np.array([2 * rank[t] + 1 for t in self.vocabulary] + [-1], dtype=np.int64)
        self._sizes = np.array([len(t.encode()) for t in self.vocabulary] + [0], dtype=np.int64)
        self._row_of: dict[str, int] | None = None

    def present(self, rows: np.ndarray) -> np.ndarray:
        return np.asarray(self.codes[rows] >= 0)

    def values(self, rows: np.ndarray) -> list[Any]:
        return [self.vocabulary[c] if c >= 0 else None for c in self.codes[rows].tolist()]

    def keys(self, rows: np.ndarray) -> np.ndarray:
        return np.asarray(self._keys[self.codes[rows]])

    def key_at(self, row: int) -> int:
        return int(self._keys[self.codes[row]])

    def sizes(self, rows: np.ndarray) -> np.ndarray:
        return np.asarray(self._sizes[self.codes[rows]])

    def lower(self, value: Any) -> Any:
        return 2 * bisect_left(self.sorted, value) if isinstance(value, str) else None

    def upper(self, value: Any) -> Any:
        return 2 * bisect_right(self.sorted, value) - 1 if isinstance(value, str) else None

    def find(self, value: Any) -> int | None:
        if self._row_of is None:
            self._row_of = {self.vocabulary[c]: row for row, c in enumerate(self.codes.tolist()) if c >= 0}
        return self._row_of.get(value)


class Formatted(Column):
    """Strings made from the row number, ``prefix`` then ``width`` digits: generated ids, no storage.
    Fixed width, so their string order is the row order."""

    def __init__(self, rows: int, prefix: str = "", width: int = 9) -> None:
        super().__init__(rows)
        self.prefix, self.width = prefix, width

    def text(self, row: int) -> str:
        return f"{self.prefix}{row:0{self.width}d}"

    def values(self, rows: np.ndarray) -> list[Any]:
        return [self.text(r) for r in rows.tolist()]

    def keys(self, rows: np.ndarray) -> np.ndarray:
        return rows.astype(np.int64)

    def key_at(self, row: int) -> int:
        return int(row)

    def sizes(self, rows: np.ndarray) -> np.ndarray:
        return np.full(len(rows), len(self.prefix.encode()) + self.width, dtype=np.int64)

    def lower(self, value: Any) -> Any:
        if not isinstance(value, str):
            return None
        return bisect_left(range(self.rows), value, key=self.text)

    def upper(self, value: Any) -> Any:
        if not isinstance(value, str):
            return None
        return bisect_right(range(self.rows), value, key=self.text) - 1

    def find(self, value: Any) -> int | None:
        digits = value[len(self.prefix) :] if isinstance(value, str) else ""
        if not value.startswith(self.prefix) or len(digits) != self.width or not digits.isdigit():
            return None
        row = int(digits)
        return row if row < self.rows else None


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
