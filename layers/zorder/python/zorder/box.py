"""A query box: inclusive per-dimension bounds on the encoded keys, and membership tests.

Bounds are keys (encoded ints), not values, so a box built from values is a *superset* of the
matching items wherever an encoding merges values (a Text prefix, a Fixed step): the query's filter
expression drops the extras, exactly as the seed describes for truncated text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import prod
from typing import Any

from zorder.bits import Interleaver, interleaver
from zorder.dimension import Dimension, encode_point

__all__ = ["Box"]


@dataclass(frozen=True, slots=True)
class Box:
    """Inclusive key bounds ``lower[d] <= key[d] <= upper[d]`` for each dimension ``d``.

    Usually made by :meth:`zorder.Schema.box` from values; constructing one directly takes keys.

    >>> from zorder.encodings import UInt
    >>> dims = (Dimension("y", UInt(3)), Dimension("x", UInt(3)))
    >>> box = Box(dims, lower=(2, 2), upper=(6, 3))
    >>> box.zmin, box.zmax, box.volume
    (12, 45, 10)
    >>> box.contains({"y": 4, "x": 2}), box.contains(19)
    (True, False)
    """

    dimensions: tuple[Dimension, ...]
    lower: tuple[int, ...]
    upper: tuple[int, ...]

    def __post_init__(self) -> None:
        for name in ("dimensions", "lower", "upper"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        if not len(self.dimensions) == len(self.lower) == len(self.upper):
            raise ValueError("a box needs exactly one lower and one upper key per dimension")
        for dim, lo, hi in zip(self.dimensions, self.lower, self.upper, strict=True):
            if not 0 <= lo <= hi <= (1 << dim.bits) - 1:
                raise ValueError(
                    f"lower key {lo} > upper key {hi} for {dim.name!r}"
                    if lo > hi
                    else f"keys {lo}..{hi} for {dim.name!r} are outside 0..{(1 << dim.bits) - 1}"
                )

    @classmethod
    def full(cls, dimensions: Sequence[Dimension]) -> Box:
        """The box holding every address (no dimension bounded).

        >>> from zorder.encodings import UInt
        >>> Box.full([Dimension("a", UInt(16))]).volume
        65536
        """
        return cls(tuple(dimensions), (0,) * len(dimensions), tuple((1 << d.bits) - 1 for d in dimensions))

    @classmethod
    def from_values(
        cls, dimensions: Sequence[Dimension], lower: Mapping[str, Any], upper: Mapping[str, Any]
    ) -> Box:
        """Build a box from values (see :meth:`zorder.Schema.box`, which documents the rules)."""
        names = [d.name for d in dimensions]
        unknown = sorted((set(lower) | set(upper)) - set(names))
        if unknown:
            raise ValueError(f"unknown dimension(s) {unknown}; the schema has {names}")
        lo, hi = [], []
        for d in dimensions:
            a = d.bound(lower[d.name], upper=False) if d.name in lower else 0
            b = d.bound(upper[d.name], upper=True) if d.name in upper else (1 << d.bits) - 1
            if a > b:
                raise ValueError(f"lower {lower[d.name]!r} > upper {upper[d.name]!r} for {d.name!r}")
            lo.append(a)
            hi.append(b)
        return cls(tuple(dimensions), tuple(lo), tuple(hi))

    @property
    def layout(self) -> Interleaver:
        return interleaver(tuple(d.bits for d in self.dimensions))

    @property
    def zmin(self) -> int:
        """Smallest address in the box: the lower corner (the interleave is monotone per dimension)."""
        return self.layout.spread(self.lower)

    @property
    def zmax(self) -> int:
        """Largest address in the box: the upper corner."""
        return self.layout.spread(self.upper)

    @property
    def volume(self) -> int:
        """Number of addresses inside the box."""
        return prod(hi - lo + 1 for lo, hi in zip(self.lower, self.upper, strict=True))

    def fractions(self) -> tuple[float, ...]:
        """Per dimension, the share of its keys the box selects (1.0 = unbounded)."""
        return tuple(
            (hi - lo + 1) / (1 << d.bits)
            for d, lo, hi in zip(self.dimensions, self.lower, self.upper, strict=True)
        )

    def masked_bounds(self) -> tuple[tuple[int, int, int], ...]:
        """Per dimension, its bit mask and its lower and upper key spread into address position.

        A dimension's bits, masked out of an address, keep that dimension's order, so an address is in
        the box when ``lo <= address & mask <= hi`` for every dimension: a membership test without
        deinterleaving (the planner's and the benchmarks' hot loops).

        >>> from zorder.encodings import UInt
        >>> box = Box((Dimension("y", UInt(3)), Dimension("x", UInt(3))), (2, 2), (6, 3))
        >>> [all(lo <= a & m <= hi for m, lo, hi in box.masked_bounds()) for a in (19, 36)]
        [False, True]
        """
        layout, n = self.layout, len(self.dimensions)
        return tuple(
            (
                mask,
                layout.spread(tuple(lo if i == d else 0 for i in range(n))),
                layout.spread(tuple(hi if i == d else 0 for i in range(n))),
            )
            for d, (mask, lo, hi) in enumerate(zip(layout.dim_masks, self.lower, self.upper, strict=True))
        )

    def contains_point(self, keys: Sequence[int]) -> bool:
        """Whether one key per dimension lies inside the box."""
        return all(lo <= k <= hi for lo, k, hi in zip(self.lower, keys, self.upper, strict=True))

    def contains(self, item: Mapping[str, Any] | bytes | int) -> bool:
        """Whether a record or an address lies inside the box.

        Parameters
        ----------
        item : Mapping[str, Any] | bytes | int
            A record (encoded with the dimensions' types), an address as stored in DynamoDB, or the
            address as an int.

        Returns
        -------
        bool
            True when every dimension's key lies within its bounds.

        Raises
        ------
        ValueError
            An address of the wrong length, or a record missing a dimension / out of a type's range.
        TypeError
            A record value of the wrong type.

        Examples
        --------
        >>> from zorder.encodings import Int
        >>> box = Box((Dimension("t", Int(8)),), lower=(128,), upper=(138,))   # t in 0..10
        >>> box.contains({"t": 3}), box.contains({"t": -3}), box.contains(bytes([128]))
        (True, False, True)
        """
        if isinstance(item, bytes | bytearray):
            nbytes = (self.layout.total_bits + 7) // 8
            if len(item) != nbytes:
                raise ValueError(f"an address of this schema has {nbytes} bytes, got {len(item)}")
            return self.contains_point(self.layout.deinterleave(int.from_bytes(item)))
        if isinstance(item, int) and not isinstance(item, bool):
            return self.contains_point(self.layout.deinterleave(item))
        return self.contains_point(encode_point(self.dimensions, item))
