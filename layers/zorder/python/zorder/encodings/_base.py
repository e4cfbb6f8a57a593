"""Shared pieces of the encodings: the base mixin, value coercion, and the out-of-range error.

Every encoding maps a value to an unsigned int of ``bits`` bits whose numeric order is the value's
natural order (the seed's rule: a dimension's binary form need not be reversible, only order-preserving).
"""

from __future__ import annotations

import math
from dataclasses import fields
from decimal import Decimal
from typing import Any, ClassVar

__all__ = ["MAX_BITS", "OutOfRange", "as_int", "as_real", "check_bits"]

# DynamoDB sort keys hold at most 1,024 bytes, so no dimension (and no schema) can use more bits.
MAX_BITS = 1024 * 8


class OutOfRange(ValueError):  # a ValueError, named for what it reports
    """A value outside the encoding's domain; ``below`` says on which side (used to clamp box bounds)."""

    def __init__(self, message: str, *, below: bool) -> None:
        super().__init__(message)
        self.below = below


def check_bits(owner: str, bits: object, *, low: int = 1, high: int = MAX_BITS) -> None:
    """Raise ``ValueError`` unless ``bits`` is an int in ``low..high``."""
    if type(bits) is not int or not low <= bits <= high:
        raise ValueError(f"{owner}: bits must be an int in {low}..{high}, got {bits!r}")


def as_int(value: Any, owner: object) -> int:
    """Coerce an int or an integral ``Decimal`` (DynamoDB's number type); reject bool, float, text.

    ``owner`` (the encoding, or a description) is only formatted into error messages, so that the
    happy path never pays for a ``repr``.
    """
    if type(value) is int:
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return int(value)
    if isinstance(value, Decimal):
        if value.is_finite() and value == value.to_integral_value():
            return int(value)
        raise ValueError(f"{owner} expects an integral number, got Decimal {value}")
    raise TypeError(
        f"{owner} expects an int (or an integral Decimal), got {type(value).__name__} {value!r}; "
        "convert it with int() first"
    )


def as_real(value: Any, owner: object) -> float:
    """Coerce an int, float or ``Decimal`` to float; reject bool and text, and NaN (it has no order)."""
    if type(value) is float and value == value:  # the common case first (NaN != NaN)
        return value
    if isinstance(value, int | float | Decimal) and not isinstance(value, bool):
        try:
            x = float(value)
        except OverflowError:  # an int beyond float range: out of any real domain, on its side
            raise OutOfRange(f"{owner}: {value} is beyond the float range", below=value < 0) from None
    else:
        raise TypeError(f"{owner} expects a number (int, float or Decimal), got {type(value).__name__}")
    if math.isnan(x):
        raise ValueError(f"{owner}: NaN has no place in an order; store a sentinel or leave the item out")
    return x


class EncodingBase:
    """Behaviour shared by every encoding dataclass: bounds for boxes and the JSON parameters."""

    __slots__ = ()
    kind: ClassVar[str]
    bits: int

    def encode(self, value: Any) -> int:  # pragma: no cover - every subclass overrides it
        raise NotImplementedError

    def bound(self, value: Any, *, upper: bool) -> int:
        """Encode a box bound, clamping a bound beyond the domain on the side where that is harmless.

        A lower bound below the domain (or an upper bound above it) excludes nothing, so it becomes the
        smallest (largest) key. A lower bound above the domain, or an upper bound below it, would make the
        box empty: that raises ``ValueError`` because it is almost certainly a mistake in the query.
        """
        try:
            return self.encode(value)
        except OutOfRange as exc:
            if exc.below != upper:
                return 0 if exc.below else (1 << self.bits) - 1
            side = "upper" if upper else "lower"
            raise ValueError(f"{side} bound {value!r} leaves nothing in the box: {exc}") from None

    def params(self) -> dict[str, Any]:
        """The constructor arguments, as JSON-ready values (what ``to_json`` stores)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.init}  # type: ignore[arg-type]
