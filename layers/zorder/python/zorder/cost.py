"""Query cost and attribute choice, after the seed: how much of the search space does a query touch,
and which attributes deserve a place in the schema.

Cost. The seed estimates the addresses a query must visit as ``n ** ((a - b) / a)``: ``n`` addresses in
the space, ``a`` dimensions of equal width, ``b`` of them bound to one exact value. Each dimension thus
contributes its own factor: 1 when bound exactly, ``2**w`` when unbound. :func:`estimate` generalises
this to ranges and mixed widths by letting each dimension contribute the number of keys its bound
selects (``2**w`` times its selected fraction), i.e. the box's volume. In the seed's terms a range
bound adds ``b_d = 1 - log2(selected keys) / w`` to ``b``, the share of the dimension's *bits* it pins.

Which attributes to index at all is :mod:`zorder.advisor`'s business.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from zorder.box import Box
from zorder.dimension import Dimension
from zorder.schema import Schema

__all__ = ["DimensionCost", "Estimate", "FormulaRow", "estimate", "explain", "formula_rows", "seed_formula"]


def seed_formula(total_bits: int, a: int, b: float) -> int | float:
    """The seed's ``n ** ((a - b) / a)`` with ``n = 2**total_bits``; exact when the power is whole.

    >>> [seed_formula(64, 4, b) for b in (4, 3, 2, 1, 0)]
    [1, 65536, 4294967296, 281474976710656, 18446744073709551616]
    """
    exponent = Fraction(total_bits) * (a - Fraction(b)) / a
    return 1 << int(exponent) if exponent.denominator == 1 else math.pow(2.0, float(exponent))


def _own(schema: Schema, box: Box) -> Box:
    if box.dimensions != schema.dimensions:
        raise ValueError("the box was made for another schema; build it with this schema's box()")
    return box


def estimate(schema: Schema, box: Box) -> int:
    """Addresses of the search space the query touches (the seed's formula, generalised to ranges).

    Parameters
    ----------
    schema : Schema
        The index's schema.
    box : Box
        The query, from ``schema.box(...)``.

    Returns
    -------
    int
        The product over dimensions of the keys each selects: ``n ** ((a - b) / a)`` when every
        dimension is either bound to one value or unbound and widths are equal, as in the seed.

    Raises
    ------
    ValueError
        The box belongs to another schema.

    Examples
    --------
    >>> from zorder.encodings import UInt
    >>> schema = Schema.of(a=UInt(16), b=UInt(16), c=UInt(16), d=UInt(16))
    >>> estimate(schema, schema.box({"a": 5, "b": 2, "c": 8}, {"a": 5, "b": 2, "c": 8}))
    65536
    """
    return _own(schema, box).volume


@dataclass(frozen=True, slots=True)
class DimensionCost:
    """One dimension's part of an :class:`Estimate`."""

    name: str
    encoding: str
    bits: int
    lower: int
    upper: int
    fraction: float  # share of the dimension's keys the box selects
    pinned: float  # the dimension's b_d in the seed's formula: share of its bits the bound fixes
    shown: str  # the bounds as values, for people ("any" when unbounded)


@dataclass(frozen=True, slots=True)
class Estimate:
    """Per-dimension breakdown of :func:`estimate`, plus the cost of a range budget when asked."""

    dimensions: tuple[DimensionCost, ...]
    addresses: int
    search_space: int
    max_ranges: int | None = None
    ranges: int | None = None
    covered: int | None = None

    @property
    def share(self) -> float:
        return self.addresses / self.search_space


def _value(dim: Dimension, key: int) -> str:
    try:
        value = dim.encoding.decode(key)
    except ValueError:  # e.g. a Timestamp key beyond datetime's years
        return f"key {key}"
    return f"{value:.6g}" if isinstance(value, float) else str(value)


def _pinned(dim: Dimension, lo: int, hi: int) -> float:
    return 1 - math.log2(hi - lo + 1) / dim.bits


def _shown(dim: Dimension, lo: int, hi: int) -> str:
    if lo == 0 and hi == (1 << dim.bits) - 1:
        return "any"
    return _value(dim, lo) if lo == hi else f"{_value(dim, lo)} .. {_value(dim, hi)}"


def explain(schema: Schema, box: Box, max_ranges: int | None = None) -> Estimate:
    """Break :func:`estimate` down by dimension; with ``max_ranges``, also what those ranges cover.

    >>> from zorder.encodings import UInt
    >>> schema = Schema.of(y=UInt(3), x=UInt(3))
    >>> e = explain(schema, schema.box({"x": 2, "y": 2}, {"x": 3, "y": 6}), max_ranges=2)
    >>> e.addresses, e.ranges, e.covered
    (10, 2, 14)
    """
    _own(schema, box)
    dims = tuple(
        DimensionCost(d.name, repr(d.encoding), d.bits, lo, hi, f, _pinned(d, lo, hi), _shown(d, lo, hi))
        for d, lo, hi, f in zip(schema.dimensions, box.lower, box.upper, box.fractions(), strict=True)
    )
    est = Estimate(dims, box.volume, 1 << schema.bits, max_ranges)
    if max_ranges is None:
        return est
    spans = schema.ranges(box, max_ranges)
    covered = sum(int.from_bytes(hi) - int.from_bytes(lo) + 1 for lo, hi in spans)
    return Estimate(dims, est.addresses, est.search_space, max_ranges, len(spans), covered)


@dataclass(frozen=True, slots=True)
class FormulaRow:
    """One row of the seed's formula table: the first ``bound`` dimensions fixed to one value each."""

    query: str
    bound: int
    formula: str
    simplified: str
    addresses: int


def formula_rows(schema: Schema, example: Mapping[str, Any] | None = None) -> list[FormulaRow]:
    """The seed's table for ``schema``: bind all, all but one, ... no dimensions (in schema order).

    ``addresses`` comes from :func:`estimate` on the real box; the formula columns assume equal widths,
    as the seed does. Dimensions missing from ``example`` are shown as ``?`` (any one value costs the same).

    >>> from zorder.encodings import UInt
    >>> rows = formula_rows(Schema.of(a=UInt(16), b=UInt(16)), {"a": 5, "b": 2})
    >>> [(r.query, r.simplified, r.addresses) for r in rows]
    [('a = 5 AND b = 2', '2^0', 1), ('a = 5', '2^16', 65536), ('<unbounded>', '2^32', 4294967296)]
    """
    example = example or {}
    a, n = len(schema.dimensions), schema.bits
    rows = []
    for b in range(a, -1, -1):
        dims = schema.dimensions
        query = " AND ".join(f"{d.name} = {example.get(d.name, '?')}" for d in dims[:b]) or "<unbounded>"
        keys = [d.encode(example[d.name]) if d.name in example else 0 for d in dims[:b]]
        box = Box(dims, (*keys, *(0 for d in dims[b:])), (*keys, *((1 << d.bits) - 1 for d in dims[b:])))
        exponent = Fraction(n * (a - b), a)
        power = str(exponent) if exponent.denominator == 1 else f"{float(exponent):.2f}"
        formula = f"(2^{n})^(({a}-{b})/{a})"
        rows.append(FormulaRow(query, b, formula, f"2^{power}", estimate(schema, box)))
    return rows
