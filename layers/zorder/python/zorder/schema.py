"""The schema: named dimensions in a fixed order, and everything done with addresses as bytes.

Addresses are ``bytes`` of ``ceil(total_bits / 8)`` bytes, big-endian, holding the interleaved int
(see :mod:`zorder.bits` for the bit order) right-aligned: when the total is not a multiple of 8 the
top bits of the first byte are zero. Python's ``bytes`` order and DynamoDB's binary sort-key order
(unsigned, byte by byte) are then both the Z order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from zorder.bigmin import next_in_box
from zorder.bits import Interleaver, interleaver
from zorder.box import Box
from zorder.dimension import Dimension, encode_point
from zorder.encodings import MAX_BITS
from zorder.ranges import ranges
from zorder.serial import SchemaText

__all__ = ["Schema"]

_Plan = tuple[tuple[str, Callable[[Any], int], tuple[tuple[int, list[int], int], ...]], ...]


@dataclass(frozen=True, slots=True)
class Schema(SchemaText):
    """Named dimensions in order; the first is the most significant at every bit level.

    Built with ``Schema(dimensions)``, :meth:`of`, :meth:`from_spec` or :meth:`from_json`.

    Parameters
    ----------
    dimensions : tuple[Dimension, ...]
        At least one, unique names, at most 8,192 bits in all (DynamoDB's 1,024-byte sort key).

    Examples
    --------
    >>> from zorder.encodings import UInt
    >>> schema = Schema.of(y=UInt(3), x=UInt(3))
    >>> schema.encode({"x": 3, "y": 6}).hex()
    '2d'
    """

    dimensions: tuple[Dimension, ...]
    layout: Interleaver = field(init=False, repr=False, compare=False)
    nbytes: int = field(init=False, repr=False, compare=False)
    _plan: _Plan = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        dims = tuple(d if isinstance(d, Dimension) else Dimension(*d) for d in self.dimensions)
        names = [d.name for d in dims]
        if not dims or len(set(names)) != len(names):
            raise ValueError(f"a schema needs at least one dimension and unique names, got {names}")
        total = sum(d.bits for d in dims)
        if total > MAX_BITS:
            raise ValueError(f"the schema needs {total} bits; DynamoDB sort keys hold at most {MAX_BITS}")
        layout = interleaver(tuple(d.bits for d in dims))
        # Raw ``encode`` methods and interleave tables, flattened for the hot loop in ``encode``.
        plan = tuple((d.name, d.encoding.encode, c) for d, c in zip(dims, layout.chunks, strict=True))
        for name, value in (("dimensions", dims), ("layout", layout), ("nbytes", (total + 7) // 8)):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "_plan", plan)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(d.name for d in self.dimensions)

    @property
    def bits(self) -> int:
        """Total address bits (the search space holds ``2**bits`` addresses)."""
        return self.layout.total_bits

    def keys(self, record: Mapping[str, Any]) -> tuple[int, ...]:
        """One encoded key per dimension, in schema order."""
        return encode_point(self.dimensions, record)

    def encode(self, record: Mapping[str, Any]) -> bytes:
        """The record's Z address.

        Parameters
        ----------
        record : Mapping[str, Any]
            A value for every dimension (other attributes are ignored); DynamoDB's ``Decimal`` numbers
            are accepted wherever a number is.

        Returns
        -------
        bytes
            ``nbytes`` bytes, big-endian; ``bytes`` order is Z order.

        Raises
        ------
        ValueError
            A dimension is missing or a value is outside its type's range (never truncated).
        TypeError
            A value has the wrong type. Both messages name the dimension.

        Examples
        --------
        >>> from zorder.encodings import Int
        >>> Schema.of(a=Int(8), b=Int(8)).encode({"a": -1, "b": 0}).hex()
        '6aaa'
        """
        if not self.layout.absolute:  # wide schemas: tables hold relative bits, take the general path
            return self.layout.spread(encode_point(self.dimensions, record)).to_bytes(self.nbytes)
        z = 0
        try:  # the hot path, inlined: one table lookup and one OR per byte of each key
            for name, encode, chunks in self._plan:
                key = encode(record[name])
                for shift, table, _ in chunks:
                    z |= table[(key >> shift) & 255]
        except (KeyError, TypeError, ValueError):
            encode_point(self.dimensions, record)  # redo slowly to raise an error naming the dimension
            raise
        return z.to_bytes(self.nbytes)

    def decode(self, address: bytes) -> dict[str, Any]:
        """Decode an address into values (a step's centre for ``Fixed``, the prefix for ``Text``).

        >>> from zorder.encodings import Int
        >>> Schema.of(a=Int(8), b=Int(8)).decode(bytes.fromhex("6aaa"))
        {'a': -1, 'b': 0}
        """
        keys = self.layout.deinterleave(self._address(address))
        return {d.name: d.encoding.decode(k) for d, k in zip(self.dimensions, keys, strict=True)}

    def box(self, lower: Mapping[str, Any] | None = None, upper: Mapping[str, Any] | None = None) -> Box:
        """The query box ``lower <= record <= upper``.

        Parameters
        ----------
        lower, upper : Mapping[str, Any], optional
            Inclusive bounds as values of each dimension's type. A dimension in only one mapping is
            bounded on that side only; in neither, unbounded. A bound beyond the dimension's domain is
            clamped when that excludes nothing (a lower bound below the minimum).

        Returns
        -------
        Box
            Bounds on the encoded keys: a superset of the matching records where an encoding merges
            values (a ``Text`` prefix, a ``Fixed`` step), for the filter expression to trim.

        Raises
        ------
        ValueError
            An unknown dimension, ``lower > upper`` (naming both and the dimension), or a bound that
            would empty the box (a lower bound above the domain's maximum).

        Examples
        --------
        >>> from zorder.encodings import UInt
        >>> Schema.of(y=UInt(3), x=UInt(3)).box({"x": 2, "y": 2}, {"x": 3, "y": 6}).volume
        10
        """
        return Box.from_values(self.dimensions, lower or {}, upper or {})

    def next_in_box(self, z: bytes, box: Box) -> bytes | None:
        """The smallest address ``>= z`` inside ``box`` (Tropf-Herzog BIGMIN).

        Parameters
        ----------
        z : bytes
            An address of this schema, typically the first one past an item outside the box.
        box : Box
            Made by this schema's :meth:`box`.

        Returns
        -------
        bytes or None
            The address to continue the scan from, or None when the box holds nothing at or after ``z``.

        Examples
        --------
        >>> from zorder.encodings import UInt
        >>> schema = Schema.of(y=UInt(3), x=UInt(3))
        >>> schema.next_in_box(bytes([19]), schema.box({"x": 2, "y": 2}, {"x": 3, "y": 6}))
        b'$'
        """
        found = next_in_box(self._address(z), self._own(box))
        return None if found is None else found.to_bytes(self.nbytes)

    def ranges(self, box: Box, max_ranges: int | None) -> list[tuple[bytes, bytes]]:
        """Address ranges to query: sorted, disjoint, inclusive ``(lo, hi)`` covering ``box``.

        Parameters
        ----------
        box : Box
            Made by this schema's :meth:`box`.
        max_ranges : int or None
            At most this many ranges: exact when the budget allows, otherwise the cheapest gaps are
            merged first. None means exact, however many runs (beware of thin boxes in wide schemas).

        Examples
        --------
        >>> from zorder.encodings import UInt
        >>> schema = Schema.of(y=UInt(3), x=UInt(3))
        >>> box = schema.box({"x": 2, "y": 2}, {"x": 3, "y": 6})
        >>> [(lo[0], hi[0]) for lo, hi in schema.ranges(box, None)], len(schema.ranges(box, 2))
        ([(12, 15), (36, 39), (44, 45)], 2)
        """
        return [
            (lo.to_bytes(self.nbytes), hi.to_bytes(self.nbytes))
            for lo, hi in ranges(self._own(box), max_ranges)
        ]

    def _address(self, address: bytes) -> int:
        if not isinstance(address, bytes | bytearray) or len(address) != self.nbytes:
            raise ValueError(f"an address of this schema is {self.nbytes} bytes, got {address!r}")
        return int.from_bytes(address)

    def _own(self, box: Box) -> Box:
        if box.dimensions != self.dimensions:
            raise ValueError("the box was made for another schema; build it with this schema's box()")
        return box
