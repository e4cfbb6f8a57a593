"""Integer-like encodings: ``UInt``, ``Int`` (two's complement with the sign bit flipped) and ``Bool``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from zorder.encodings._base import EncodingBase, OutOfRange, as_int, check_bits

__all__ = ["Bool", "Int", "UInt"]


@dataclass(frozen=True, slots=True)
class UInt(EncodingBase):
    """Unsigned integer ``0 .. 2**bits - 1``, stored as is: its binary form already sorts numerically.

    A value outside the range raises ``ValueError``: it is never masked or wrapped.

    >>> UInt(8).encode(200)
    200
    """

    bits: int
    kind: ClassVar[str] = "uint"

    def __post_init__(self) -> None:
        check_bits("UInt", self.bits)

    def encode(self, value: Any) -> int:
        v = value if type(value) is int else as_int(value, self)
        if v >= 0 and not v >> self.bits:
            return v
        raise OutOfRange(
            f"{self!r} holds 0..{(1 << self.bits) - 1}, got {v}; widen the dimension or clamp it", below=v < 0
        )

    def decode(self, key: int) -> int:
        return key

    def parse(self, text: str) -> int:
        """Read a value from text (command lines, query strings).

        >>> UInt(8).parse("42")
        42
        """
        return int(text)


@dataclass(frozen=True, slots=True)
class Int(EncodingBase):
    """Signed integer ``-2**(bits-1) .. 2**(bits-1) - 1``: two's complement with the sign bit flipped.

    Flipping the sign bit of the two's complement form is the same as adding ``2**(bits-1)``, which is how
    it is computed. The seed's table: -128 -> 0, -1 -> 127, 0 -> 128, 127 -> 255 for ``Int(8)``.

    >>> [Int(8).encode(v) for v in (-128, -1, 0, 127)]
    [0, 127, 128, 255]
    >>> Int(8).decode(127)
    -1
    """

    bits: int
    kind: ClassVar[str] = "int"

    def __post_init__(self) -> None:
        check_bits("Int", self.bits)

    def encode(self, value: Any) -> int:
        v = value if type(value) is int else as_int(value, self)
        half = 1 << (self.bits - 1)
        if -half <= v < half:
            return v + half
        raise OutOfRange(
            f"{self!r} holds {-half}..{half - 1}, got {v}; widen the dimension or clamp it", below=v < 0
        )

    def decode(self, key: int) -> int:
        return key - (1 << (self.bits - 1))

    def parse(self, text: str) -> int:
        """Read a value from text.

        >>> Int(8).parse("-5")
        -5
        """
        return int(text)


_TRUE, _FALSE = frozenset({"true", "1", "yes"}), frozenset({"false", "0", "no"})


@dataclass(frozen=True, slots=True)
class Bool(EncodingBase):
    """One bit: ``False`` -> 0, ``True`` -> 1. Only real ``bool`` values are accepted.

    The seed's warning applies: a flag true for 5% of items is selective only when queries ask for
    ``True``; asking for ``False`` excludes 5% while doubling the search space.

    >>> Bool().encode(True), Bool().decode(0)
    (1, False)
    """

    bits: int = field(default=1, init=False, repr=False, compare=False)
    kind: ClassVar[str] = "bool"

    def encode(self, value: Any) -> int:
        if type(value) is bool:
            return int(value)
        raise TypeError(f"Bool() expects True or False, got {type(value).__name__} {value!r}")

    def decode(self, key: int) -> bool:
        return bool(key)

    def parse(self, text: str) -> bool:
        """Read true/false, 1/0 or yes/no.

        >>> Bool().parse("true")
        True
        """
        word = text.strip().lower()
        if word in _TRUE or word in _FALSE:
            return word in _TRUE
        raise ValueError(f"Bool() reads true/false, 1/0 or yes/no, got {text!r}")
