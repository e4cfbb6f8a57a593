"""An equi-depth histogram: how many keys lie in a range, from a bounded summary of sorted keys.

The keys (Z-addresses, or one attribute's encoded keys) are sorted and cut into groups of ``depth``
items; the summary keeps each group's first key. A group's first item sits at that key and its other
items are assumed spread evenly up to the next group's first key, so a count is exact at group edges,
off by less than ``depth`` items per end elsewhere, and exact everywhere when ``depth`` is 1 (small
tables keep every key). Counting is two binary searches: cheap enough to call hundreds of times while
planning one request.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["EquiDepth"]


@dataclass(frozen=True, slots=True)
class EquiDepth:
    """``firsts[j]``: the smallest key of group ``j``; groups hold ``depth`` items (the last the rest).

    >>> h = EquiDepth.of(sorted([1, 2, 2, 3, 10, 11, 12, 40]), max_groups=4)
    >>> h.firsts, h.depth, h.count(0, 100), h.count(10, 12)   # 10, 11 and 12: three
    ((1, 2, 10, 12), 2, 8.0, 3.125)
    >>> EquiDepth.of([5, 7, 9], max_groups=8).count(6, 9)
    2.0
    """

    firsts: tuple[int, ...]
    depth: float  # items per group (a float once scaled to a larger table)
    items: int
    last: int  # the largest key

    @classmethod
    def of(cls, keys: Sequence[int], max_groups: int) -> EquiDepth:
        """Summarise ``keys`` (sorted ascending) in at most ``max_groups`` groups."""
        if not keys:
            return cls((), 1, 0, 0)
        depth = max(1, -(-len(keys) // max_groups))
        return cls(tuple(keys[::depth]), depth, len(keys), keys[-1])

    @classmethod
    def uniform(cls, bits: int, items: int) -> EquiDepth:
        """``items`` spread evenly over the keys of ``bits`` bits (no statistics yet)."""
        groups = 1024 if items >= 1024 else max(items, 1)
        step = (1 << bits) // groups or 1
        return cls(tuple(range(0, step * groups, step)), max(1, items // groups), items, (1 << bits) - 1)

    def rank(self, key: int) -> float:
        """Expected number of items with a key below ``key``."""
        g = bisect_left(self.firsts, key)  # groups 0..g-1 start below key
        if g == 0:
            return 0.0
        depth = self.depth
        if depth == 1:
            return float(g)
        first = self.firsts[g - 1]
        end = self.firsts[g] if g < len(self.firsts) else self.last
        size = depth if g < len(self.firsts) else self.items - depth * (g - 1)
        if end <= first or key > end:  # the whole group lies below key
            return depth * (g - 1) + float(size)
        # the group's first item is below key; the others are spread evenly up to ``end``
        return depth * (g - 1) + 1.0 + (size - 1) * (key - 1 - first) / (end - first)

    def count(self, low: int, high: int) -> float:
        """Expected number of items with ``low <= key <= high``."""
        if high < low or not self.items:
            return 0.0
        return max(0.0, self.rank(high + 1) - self.rank(low))

    def share(self, low: int, high: int) -> float:
        """Expected share of the items with ``low <= key <= high``."""
        return self.count(low, high) / self.items if self.items else 0.0
