"""How many items lie in a key box or an address interval: the planner's estimate of what a Query reads.

Address counts are a poor proxy for items: with ``population`` as ``UInt(32)``, almost every address has
a population above any city's, yet those addresses hold no items. The estimate therefore comes from
statistics of the index itself (see :mod:`places.statistics`): a histogram of address prefixes (the
joint distribution at a coarse level) and, below it, one quantile sketch per dimension (the marginal
distributions, assumed independent inside a histogram cell). Without statistics every address is
equally likely (:meth:`Density.uniform`).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field

from zorder import Schema


@dataclass(frozen=True, slots=True)
class Marginal:
    """A dimension's distribution as a piecewise-linear CDF through quantile keys ``k0 <= ... <= kQ``.

    >>> m = Marginal((0, 10, 20, 100))      # a third of the items in each of [0,10) [10,20) [20,100)
    >>> round(m.cdf(15), 3), round(m.share(0, 19), 3)
    (0.5, 0.667)
    """

    knots: tuple[int, ...]

    def cdf(self, x: int) -> float:
        """Share of items whose key is below ``x``."""
        knots = self.knots
        if x <= knots[0]:
            return 0.0
        if x >= knots[-1]:
            return 1.0
        i = bisect_right(knots, x) - 1
        return (i + (x - knots[i]) / (knots[i + 1] - knots[i])) / (len(knots) - 1)

    def share(self, lo: int, hi: int) -> float:
        """Share of items with ``lo <= key <= hi``."""
        return self.cdf(hi + 1) - self.cdf(lo)


@dataclass(frozen=True)
class Density:
    """Expected items per address interval or key box, from a prefix histogram and marginals.

    ``cells`` maps each ``depth``-bit address prefix to its item count; ``marginals`` holds one
    :class:`Marginal` per dimension. Below ``depth`` the items of a cell are spread by the marginals.
    """

    schema: Schema
    depth: int
    cells: dict[int, int]
    marginals: tuple[Marginal, ...]
    items: int
    _levels: dict[int, dict[int, int]] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def uniform(cls, schema: Schema, items: int = 1_000_000) -> Density:
        """Every address equally likely (no statistics yet): the waste measure of ``zorder.ranges``."""
        marginals = tuple(Marginal((0, 1 << d.bits)) for d in schema.dimensions)
        return cls(schema, 0, {0: items}, marginals, items)

    def _level(self, length: int) -> dict[int, int]:
        """Counts of ``length``-bit prefixes (length <= depth), aggregated once and cached."""
        level = self._levels.get(length)
        if level is None:
            level = {}
            shift = self.depth - length
            for prefix, n in self.cells.items():
                level[prefix >> shift] = level.get(prefix >> shift, 0) + n
            self._levels[length] = level
        return level

    def _share(
        self, lower: Sequence[int], upper: Sequence[int], clo: Sequence[int], chi: Sequence[int]
    ) -> float:
        """Share of a cell's items inside a key box (marginals, independent within the cell)."""
        share = 1.0
        for m, lo, hi, a, b in zip(self.marginals, lower, upper, clo, chi, strict=True):
            lo, hi = max(lo, a), min(hi, b)
            if lo > hi:
                return 0.0
            whole = m.share(a, b)
            # A cell with no mass in the sketch still holds items: fall back to its key width.
            share *= m.share(lo, hi) / whole if whole > 1e-12 else (hi - lo + 1) / (b - a + 1)
        return share

    def block(self, prefix: int, length: int) -> float:
        """Expected items in the aligned block of addresses starting with ``prefix`` (``length`` bits)."""
        if length <= self.depth:
            return float(self._level(length).get(prefix, 0))
        cell = prefix >> (length - self.depth)
        count = self.cells.get(cell, 0)
        if not count:
            return 0.0
        layout, total = self.schema.layout, self.schema.bits
        lo = layout.deinterleave(prefix << (total - length))
        hi = layout.deinterleave(((prefix + 1) << (total - length)) - 1)
        clo = layout.deinterleave(cell << (total - self.depth))
        chi = layout.deinterleave(((cell + 1) << (total - self.depth)) - 1)
        return count * self._share(lo, hi, clo, chi)

    def interval(self, first: int, last: int) -> float:
        """Expected items with ``first <= address <= last`` (sums the interval's aligned blocks)."""
        total, items = self.schema.bits, 0.0
        while first <= last:
            size = (first & -first) if first else 1 << total  # largest aligned block starting here
            while size > last - first + 1:
                size >>= 1
            length = total - (size.bit_length() - 1)
            items += self.block(first >> (total - length), length)
            first += size
        return items

    def box(self, lower: Sequence[int], upper: Sequence[int]) -> float:
        """Expected items inside a key box (walks the histogram's prefix tree along the box's border)."""
        return self._box(0, 0, tuple(lower), tuple(upper))

    def _box(self, prefix: int, length: int, lower: tuple[int, ...], upper: tuple[int, ...]) -> float:
        count = self._level(length).get(prefix, 0) if length <= self.depth else 0
        if not count:
            return 0.0
        layout, total = self.schema.layout, self.schema.bits
        clo = layout.deinterleave(prefix << (total - length))
        chi = layout.deinterleave(((prefix + 1) << (total - length)) - 1)
        if any(hi < a or lo > b for lo, hi, a, b in zip(lower, upper, clo, chi, strict=True)):
            return 0.0
        cut = sum(not (lo <= a and b <= hi) for lo, hi, a, b in zip(lower, upper, clo, chi, strict=True))
        if cut == 0:
            return float(count)
        # Cut in one dimension only (e.g. a population bound across a whole region): its marginal says
        # how much of the node is in, as it does inside a cell; descending would visit every node.
        if cut == 1 or length == self.depth:
            return count * self._share(lower, upper, clo, chi)
        return self._box(prefix << 1, length + 1, lower, upper) + self._box(
            (prefix << 1) | 1, length + 1, lower, upper
        )
