"""Real-number encodings: IEEE-754 ``Float`` and the scaled decimal ``Fixed`` (latitude, longitude...)."""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass, field
from typing import Any, ClassVar

from zorder.encodings._base import EncodingBase, OutOfRange, as_real, check_bits

__all__ = ["Fixed", "Float", "sign_magnitude_key"]


def sign_magnitude_key(raw: int, bits: int) -> int:
    """Map a ``bits``-bit sign-magnitude integer to an unsigned key with the same order.

    The seed's rule: flip the sign bit of a positive, flip every bit of a negative. IEEE-754 floats are
    ordered like sign-magnitude integers, so :class:`Float` applies this to their bit patterns.

    >>> [sign_magnitude_key(raw, 8) for raw in (0b1000_0010, 0b1000_0001, 0, 1, 2)]  # -2 -1 0 1 2
    [125, 126, 128, 129, 130]
    """
    sign = 1 << (bits - 1)
    return raw ^ ((sign << 1) - 1) if raw & sign else raw | sign


@dataclass(frozen=True, slots=True)
class Float(EncodingBase):
    """IEEE-754 binary64 (``bits=64``) or binary32 (``bits=32``) in an order-preserving form.

    IEEE-754 orders floats like sign-magnitude integers. To make unsigned order match (the seed's
    table): positives get their sign bit flipped, negatives get every bit flipped. ``-0.0`` is stored as
    ``0.0`` (they compare equal), infinities are allowed (they sort at the ends), NaN is rejected.
    ``Float(32)`` rounds to the nearest binary32 first, so values that round together tie.

    >>> f = Float(64)
    >>> f.encode(-1.0) < f.encode(-0.0) == f.encode(0.0) < f.encode(2.5) < f.encode(math.inf)
    True
    >>> hex(f.encode(1.0))
    '0xbff0000000000000'
    """

    bits: int = 64
    kind: ClassVar[str] = "float"

    def __post_init__(self) -> None:
        if self.bits not in (32, 64):
            raise ValueError(f"Float: bits must be 64 (binary64) or 32 (binary32), got {self.bits!r}")

    def encode(self, value: Any) -> int:
        x = as_real(value, self)
        try:
            raw = int.from_bytes(struct.pack(">d" if self.bits == 64 else ">f", x))
        except OverflowError:  # beyond binary32's range (binary64 overflow already became inf)
            raise OutOfRange(f"{self!r} cannot hold {x!r}", below=x < 0) from None
        if raw == 1 << (self.bits - 1):  # -0.0 (also a tiny negative rounded to binary32): 0.0's key
            raw = 0
        return sign_magnitude_key(raw, self.bits)

    def decode(self, key: int) -> float:
        sign = 1 << (self.bits - 1)
        raw = key ^ sign if key & sign else key ^ ((sign << 1) - 1)
        fmt = ">d" if self.bits == 64 else ">f"
        return float(struct.unpack(fmt, raw.to_bytes(self.bits // 8))[0])

    def parse(self, text: str) -> float:
        """Read a float ('inf' and '-inf' included).

        >>> Float().parse("-1.5")
        -1.5
        """
        return float(text)


@dataclass(frozen=True, slots=True)
class Fixed(EncodingBase):
    """A real number in ``[lo, hi]`` mapped linearly onto the steps ``0 .. 2**bits - 1``.

    ``key = floor((x - lo) * (2**bits - 1) / (hi - lo) + 0.5)``: each value goes to the nearest step,
    halves rounding up. Every operation is monotone, so ``a <= b`` implies ``key(a) <= key(b)``; values
    within half a step of each other may share a key. Values outside ``[lo, hi]`` raise ``ValueError``.
    ``bits`` is capped at 53, the precision of a float: finer steps could not be told apart.

    >>> lat = Fixed(-90, 90, 16)
    >>> lat.encode(-90), lat.encode(0), lat.encode(90)
    (0, 32768, 65535)
    >>> round(lat.decode(32768), 3)
    0.001
    """

    lo: float
    hi: float
    bits: int
    kind: ClassVar[str] = "fixed"
    _scale: float = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name in ("lo", "hi"):
            bound = getattr(self, name)
            if isinstance(bound, bool) or not isinstance(bound, int | float) or not math.isfinite(bound):
                raise ValueError(f"Fixed: {name} must be a finite int or float, got {bound!r}")
        if not self.lo < self.hi:
            raise ValueError(f"Fixed: lo {self.lo!r} must be below hi {self.hi!r}")
        check_bits("Fixed", self.bits, high=53)
        object.__setattr__(self, "_scale", ((1 << self.bits) - 1) / (self.hi - self.lo))

    def encode(self, value: Any) -> int:
        x = as_real(value, self)
        if self.lo <= x <= self.hi:
            return min(int((x - self.lo) * self._scale + 0.5), (1 << self.bits) - 1)
        raise OutOfRange(
            f"{self!r} holds {self.lo}..{self.hi}, got {x!r}; widen lo/hi or clamp it", below=x < self.lo
        )

    def decode(self, key: int) -> float:
        """The value at the centre of step ``key`` (not the original value: a step is a bucket)."""
        return self.lo + key / self._scale

    def parse(self, text: str) -> float:
        """Read a number.

        >>> Fixed(-180, 180, 16).parse("139.69")
        139.69
        """
        return float(text)
