"""The shape of a bulk load's order: does it walk the table partition by partition; what would shuffling give?

A load written in key order (a sorted file, rows grouped by key however fast the keys change, or a
Scan export reloaded as it came out: partition by partition) keeps writing to the partition of
the item before, so one partition works while the others wait. That is a property of the order
itself, whatever speed the keys change at, so it is measured on the order, not on the run:

- `locality`: how much more often than in a shuffled order an item lands on the same starting
  partition as the item before it (0: as if shuffled; 1: partition after partition);
- `shares`: each starting partition's share of the load's write units, which bounds how fast a
  shuffled order can go: a partition takes 1,000 units a second, so the busiest share sets the
  pace (`shuffled_rate`), as do the table's own limit and the loader's round trips (its pace).

>>> shape = LoadShape(4, (0.25, 0.25, 0.25, 0.25), 0.98, 5000.0, 1.0)
>>> shape.ordered, shape.shuffled_rate(1000.0, 4000.0)
(True, 4000.0)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["ORDERED", "LoadShape", "load_shape"]

ORDERED = 0.5  # locality from which a load counts as ordered (shuffled: about 0; key order: near 1)
PAIRS = 200_000  # adjacent pairs looked at, evenly spread over the load (enough for any order)


@dataclass(frozen=True)
class LoadShape:
    partitions: int  # the table's partitions at the start
    shares: tuple[float, ...]  # each starting partition's share of the load's write units
    locality: float
    pace: float  # items a second the loader sends when nothing throttles (its threads' round trips)
    units: float  # mean write units an item costs
    same: float = 0.0  # items landing on the partition of the item before them
    expected: float = 0.0  # ... as many as a shuffled order would put there

    @property
    def ordered(self) -> bool:
        return self.locality >= ORDERED and self.partitions > 1 and max(self.shares) < 0.9

    def shuffled_rate(self, partition_units: float, table_units: float) -> float:
        """Items a second the same items reach in a shuffled order, without retries.

        The loader's pace, the table's limit, and each partition's limit over its share of the units.
        """
        busiest = max(self.shares) * self.units
        return min(self.pace, table_units / self.units, partition_units / busiest if busiest else self.pace)


def load_shape(
    parts: Sequence[int], units: float | Sequence[float], partitions: int, pace: float
) -> LoadShape:
    """The shape of a load whose items land on starting partitions `parts` (in order), each costing
    `units` write units (one figure for all, or one per item).

    >>> load_shape([0] * 50 + [1] * 50, 1.0, 2, 2500.0).locality
    0.98
    >>> load_shape([0, 1] * 50, 1.0, 2, 2500.0).locality
    -1.0
    """
    counts = Counter(parts)
    weights: dict[int, float] = {}
    if isinstance(units, float | int):
        weights, mean = {part: count * units for part, count in counts.items()}, float(units)
    else:
        mean = sum(units) / max(1, len(units))
        for part, cost in zip(parts, units, strict=True):
            weights[part] = weights.get(part, 0.0) + cost
    total = sum(weights.values()) or 1.0
    shares = tuple(weights.get(part, 0.0) / total for part in range(partitions))
    expected = sum((count / len(parts)) ** 2 for count in counts.values()) if parts else 1.0
    step = max(1, (len(parts) - 1) // PAIRS)
    pairs = range(0, len(parts) - 1, step)
    same = sum(1 for index in pairs if parts[index] == parts[index + 1]) / max(1, len(pairs))
    locality = (same - expected) / (1 - expected) if expected < 1 else 0.0
    return LoadShape(partitions, shares, round(locality, 3), pace, mean, same, expected)
