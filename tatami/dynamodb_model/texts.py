"""String columns: a vocabulary and codes (names, countries, bucket names), or text made from the row
number (generated ids), each sorting as DynamoDB sorts strings (by code point, UTF-8's byte order)."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from tatami.dynamodb_model.columns import Column

__all__ = ["Formatted", "Texts"]


@lru_cache(maxsize=16)
def _lookups(vocabulary: tuple[str, ...]) -> tuple[list[str], np.ndarray, np.ndarray]:
    """A vocabulary's distinct strings in order, each code's order key and bytes, and a last entry
    for code -1 (absent); kept, as many columns share a vocabulary (the cities' names at every size)."""
    unique, rank = np.unique(np.array(vocabulary, dtype=object), return_inverse=True)
    sizes = np.fromiter((len(t.encode()) for t in vocabulary), dtype=np.int64, count=len(vocabulary))
    return unique.tolist(), np.append(2 * rank.astype(np.int64) + 1, -1), np.append(sizes, 0)


class Texts(Column):
    """Strings as codes into a vocabulary (code -1: absent); many rows may share one string."""

    def __init__(self, codes: np.ndarray, vocabulary: Sequence[str]) -> None:
        super().__init__(len(codes))
        self.codes, self.vocabulary = codes, list(vocabulary)
        self.sorted, self._keys, self._sizes = _lookups(tuple(self.vocabulary))
        self._row_of: dict[str, int] | None = None

    def present(self, rows: np.ndarray) -> np.ndarray:
        return np.asarray(self.codes[rows] >= 0)

    def values(self, rows: np.ndarray) -> list[Any]:
        return [self.vocabulary[c] if c >= 0 else None for c in self.codes[rows].tolist()]

    def wire(self, rows: np.ndarray) -> list[dict[str, Any] | None]:
        return [{"S": self.vocabulary[c]} if c >= 0 else None for c in self.codes[rows].tolist()]

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

    def wire(self, rows: np.ndarray) -> list[dict[str, Any] | None]:
        return [{"S": self.text(r)} for r in rows.tolist()]

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
