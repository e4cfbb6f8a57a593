"""Numbers as a column: integers of a decimal step (coordinates with 5 decimals: ``scale=5``), their
sizes by DynamoDB's rules, their text as DynamoDB returns it."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np

from tatami.dynamodb_model.columns import Column

__all__ = ["Numbers", "number_sizes"]

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
    ending = np.flatnonzero((magnitude % 10 == 0) & (magnitude != 0))  # the few that end in a zero
    rest = magnitude[ending]
    while len(ending):
        trailing[ending] += 1
        rest //= 10
        zero = rest % 10 == 0
        ending, rest = ending[zero], rest[zero]
    lowest, top = trailing - scale, digits - 1 - scale  # positions of the last and first digit
    sizes = top // 2 - lowest // 2 + 2 + (units < 0)
    return np.where(magnitude == 0, 1, sizes).astype(np.int64)


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

    def wire(self, rows: np.ndarray) -> list[dict[str, Any] | None]:
        present = self.present(rows).tolist()
        units, scale = self.units[rows].tolist(), self.scale
        if not scale:
            return [{"N": str(u)} if p else None for u, p in zip(units, present, strict=True)]
        return [{"N": _text(u, scale)} if p else None for u, p in zip(units, present, strict=True)]

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


def _text(units: int, scale: int) -> str:
    """``units * 10**-scale`` as DynamoDB writes it: no exponent, no trailing zeros.

    >>> _text(356800, 4), _text(1000000, 4), _text(-5, 4), _text(0, 4)
    ('35.68', '100', '-0.0005', '0')
    """
    digits = str(abs(units)).rjust(scale + 1, "0")
    whole, fraction = digits[:-scale], digits[-scale:].rstrip("0")
    return ("-" if units < 0 else "") + whole + ("." + fraction if fraction else "")


def _decimal(units: int, scale: int) -> Decimal:
    """``units * 10**-scale`` as DynamoDB returns it: integers without exponent, no trailing zeros.

    >>> _decimal(356800, 4), _decimal(1000000, 4)
    (Decimal('35.68'), Decimal('100'))
    """
    number = Decimal(units).scaleb(-scale)
    return number.quantize(1) if number == number.to_integral_value() else number.normalize()
