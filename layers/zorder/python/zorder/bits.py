"""Bit interleaving: per-dimension unsigned ints <-> one Z-address int, any number of dims, mixed widths.

Bit order (the contract every other module relies on):

* The address is read from its most significant bit down. It is cut into *levels*; level ``L-1`` (``L``
  = the widest dimension) is the most significant, level 0 the least.
* At each level, the dimensions taking part appear in schema order: the **first dimension of the
  schema is the most significant bit of the level**. With two 3-bit dimensions ``(y, x)`` the address
  is ``y2 x2 y1 x1 y0 x0``, the layout of the seed's figure ("y followed by x") and of Tropf & Herzog.
* When widths differ, the most significant bits of all dimensions meet at the top: a dimension of width
  ``w`` takes part in the **highest ``w`` levels** and drops out of the lowest ``L - w``. Widths
  ``(y=2, x=4)`` give ``y1 x3 y0 x2 x1 x0``. It is as if every dimension were scaled to one common grid,
  a short dimension simply being coarser.

Why the top: a range bound constrains a dimension's *high* bits first, so meeting at the top lets every
bound narrow the search early. Short dimensions in the lowest levels would leave the top to the widest
one alone: with 16-bit latitude and longitude and an unbounded 32-bit population, a city box then falls
into 65,536 pieces (64 ranges over-read 64,000x; aligned at the top, 10x). Either way a dimension's bits
land in increasing positions, so the address is monotone in every dimension: a box's lower corner has
its smallest address and its upper corner its largest, which BIGMIN and the range decomposition rely
on. No padding bits are inserted: the address has exactly ``sum(widths)`` bits.

Speed: interleaving goes through per-byte lookup tables built once per layout (see ``_tables``): one
lookup and one OR per byte of each value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from zorder._tables import Chunk, Unchunk, gather_tables, spread_tables

__all__ = ["Interleaver", "deinterleave", "interleave", "interleaver", "positions"]

# Up to this many address bits, tables hold absolute address bits (fastest, ~20% fewer operations);
# beyond it a table entry of ``total_bits`` bits per byte would make memory grow quadratically.
_ABSOLUTE_LIMIT = 192


def positions(widths: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Return, per dimension, the address position of each of its bits (bit 0 first).

    >>> positions((3, 3))
    ((1, 3, 5), (0, 2, 4))
    >>> positions((2, 4))   # y1 x3 y0 x2 x1 x0
    ((3, 5), (0, 1, 2, 4))
    """
    pos: list[list[int]] = [[] for _ in widths]
    top = max(widths, default=0)
    p = 0
    for level in range(top):  # from the least significant level up
        for d in reversed(range(len(widths))):  # the last dimension is least significant in a level
            if level >= top - widths[d]:  # a dimension of width w takes the top w levels
                pos[d].append(p)
                p += 1
    return tuple(tuple(ps) for ps in pos)


@dataclass(frozen=True, slots=True)
class Interleaver:
    """The interleave/deinterleave machinery of one layout (a tuple of per-dimension widths).

    >>> layout = Interleaver((3, 3))
    >>> layout.interleave((2, 3))   # y=2 (010), x=3 (011) -> y2 x2 y1 x1 y0 x0 = 001101
    13
    >>> layout.deinterleave(13)
    (2, 3)
    """

    widths: tuple[int, ...]
    total_bits: int = field(init=False, repr=False, compare=False)
    positions: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    dim_at: tuple[int, ...] = field(init=False, repr=False, compare=False)
    bit_at: tuple[int, ...] = field(init=False, repr=False, compare=False)
    below: tuple[int, ...] = field(init=False, repr=False, compare=False)
    dim_masks: tuple[int, ...] = field(init=False, repr=False, compare=False)
    chunks: tuple[tuple[Chunk, ...], ...] = field(init=False, repr=False, compare=False)
    absolute: bool = field(init=False, repr=False, compare=False)
    limits: tuple[int, ...] = field(init=False, repr=False, compare=False)  # 2**width per dimension
    _unchunks: tuple[Unchunk, ...] = field(init=False, repr=False, compare=False)
    _limited: tuple[tuple[int, tuple[Chunk, ...]], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        widths = tuple(self.widths)
        if not widths or any(type(w) is not int or w < 1 for w in widths):
            raise ValueError(f"widths must be positive ints, one per dimension; got {self.widths!r}")
        pos = positions(widths)
        total = sum(widths)
        dim_at, bit_at = [0] * total, [0] * total
        for d, ps in enumerate(pos):
            for k, p in enumerate(ps):
                dim_at[p], bit_at[p] = d, k
        masks = tuple(sum(1 << p for p in ps) for ps in pos)
        below = tuple(masks[dim_at[p]] & ((1 << p) - 1) for p in range(total))
        limits, absolute = tuple(1 << w for w in widths), total <= _ABSOLUTE_LIMIT
        derived = dict(widths=widths, total_bits=total, positions=pos, dim_at=tuple(dim_at))
        derived |= dict(bit_at=tuple(bit_at), below=below, dim_masks=masks, limits=limits, absolute=absolute)
        for name, value in derived.items():
            object.__setattr__(self, name, value)
        object.__setattr__(self, "chunks", spread_tables(pos, absolute=absolute))
        object.__setattr__(self, "_limited", tuple(zip(limits, self.chunks, strict=True)))
        object.__setattr__(self, "_unchunks", gather_tables(total, self.dim_at, self.bit_at))

    def spread(self, values: Sequence[int]) -> int:
        """Interleave values already known to fit their widths (no checks: the encodings validated).

        >>> Interleaver((2, 4)).spread((3, 0))   # y1 x3 y0 x2 x1 x0 = 1 0 1 0 0 0
        40
        """
        z = 0
        if self.absolute:
            for v, plan in zip(values, self.chunks, strict=True):
                for shift, table, _ in plan:
                    z |= table[(v >> shift) & 255]
            return z
        for v, plan in zip(values, self.chunks, strict=True):
            for shift, table, base in plan:
                z |= table[(v >> shift) & 255] << base
        return z

    def interleave(self, values: Sequence[int]) -> int:
        """Interleave one unsigned int per dimension; a value that does not fit raises ``ValueError``.

        Unlike pymorton, inputs are never masked: a silently truncated coordinate lands elsewhere.

        >>> Interleaver((3, 3)).interleave((6, 3))
        45
        """
        if len(values) != len(self.widths):
            raise ValueError(f"expected {len(self.widths)} values, got {len(values)}")
        if not self.absolute:
            return self.spread([self._checked(d, v) for d, v in enumerate(values)])
        z = 0
        # No ``strict=``: the length is checked above, and the keyword alone costs ~20% of this loop.
        for v, (limit, plan) in zip(values, self._limited):  # noqa: B905
            if type(v) is int and 0 <= v < limit:  # checks inlined: the path compared with pymorton
                for shift, table, _ in plan:
                    z |= table[(v >> shift) & 255]
            else:
                for d, value in enumerate(values):  # find the bad value and say why
                    self._checked(d, value)
        return z

    def _checked(self, d: int, v: int) -> int:
        if type(v) is not int:
            raise TypeError(f"value {v!r} of dimension {d} is not an int")
        if not 0 <= v < self.limits[d]:
            raise ValueError(f"value {v!r} of dimension {d} does not fit in {self.widths[d]} unsigned bits")
        return v

    def deinterleave(self, z: int) -> tuple[int, ...]:
        """Split an address back into one unsigned int per dimension.

        >>> Interleaver((2, 4)).deinterleave(40)
        (3, 0)
        """
        if type(z) is not int or z < 0 or z >> self.total_bits:
            raise ValueError(f"address {z!r} does not fit in {self.total_bits} unsigned bits")
        values = [0] * len(self.widths)
        for shift, d, table, k0 in self._unchunks:
            values[d] |= table[(z >> shift) & 255] << k0
        return tuple(values)


@lru_cache(maxsize=256)
def interleaver(widths: tuple[int, ...]) -> Interleaver:
    """Return the (cached) :class:`Interleaver` of a layout; tables are built once per layout.

    >>> interleaver((16, 16)) is interleaver((16, 16))
    True
    """
    return Interleaver(widths)


def interleave(values: Sequence[int], widths: Sequence[int]) -> int:
    """Interleave one unsigned int per dimension into a Z address (see the module for the bit order).

    Parameters
    ----------
    values : Sequence[int]
        One value per dimension, ``0 <= values[d] < 2**widths[d]``.
    widths : Sequence[int]
        Bits per dimension, in schema order (the first is most significant at each level).

    Returns
    -------
    int
        The address, ``sum(widths)`` bits wide.

    Raises
    ------
    ValueError
        A value does not fit its width (it is never masked), or the counts differ.
    TypeError
        A value is not an int (``bool`` included).

    Examples
    --------
    >>> interleave((2, 2), (3, 3)), interleave((6, 3), (3, 3))
    (12, 45)
    """
    return interleaver(tuple(widths)).interleave(values)


def deinterleave(z: int, widths: Sequence[int]) -> tuple[int, ...]:
    """Inverse of :func:`interleave`.

    >>> deinterleave(36, (3, 3))
    (4, 2)
    """
    return interleaver(tuple(widths)).deinterleave(z)
