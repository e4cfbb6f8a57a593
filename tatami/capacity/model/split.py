"""Where a partition splits, and whether splitting it for heat would help at all.

DynamoDB chooses the split point "based on key distribution the partition has observed", and does
not split "a partition receiving high traffic to a single item or a partition where the key range
is accessed sequentially" (the DynamoDB paper, USENIX ATC 2022, section 4). The model looks at the
partition's recent accesses: the split point is their median (between item collections when it
can, inside one by sort key when it must, as seed 003 describes), and the split is made only if the
newer half of those accesses would not all land on one side. Sequential writes fail that test (the
newer half lies above the median of the window), and so does a single hot item. A table with a local
secondary index keeps each item collection on one partition (LSI.html#LSI.ItemCollections), so its
partitions split only between collections.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from tatami.capacity.model.keys import HASH_SPACE, Position
from tatami.capacity.model.limits import Limits
from tatami.capacity.model.partition import Partition

__all__ = ["heat_split_point", "middle_of", "size_split_point"]

MIN_OBSERVED = 16  # accesses needed before a split point means anything


def heat_split_point(part: Partition, limits: Limits, lsi: bool = False) -> Position | None:
    """The position to split a hot partition at, or None when a split would not spread its traffic.

    >>> from tatami.capacity.model.allowance import Allowance
    >>> hot = Partition(0, (0, b""), Allowance(1000))
    >>> hot.recent.extend((h << 32, b"", 1) for h in (5, 1, 4, 2, 3, 6, 2, 5, 1, 6, 3, 4, 1, 5, 2, 6))
    >>> heat_split_point(hot, Limits()) == (4 << 32, b"")
    True
    >>> hot.recent.clear(); hot.recent.extend((7, bytes([n]), 1) for n in range(32))  # sequential
    >>> heat_split_point(hot, Limits()) is None
    True
    """
    entries = list(part.recent)
    if sum(count for _, _, count in entries) < MIN_OBSERVED:
        return None
    newer = entries[len(entries) // 2 :]
    for at in _candidates(part.low, ((h, sk, count) for h, sk, count in entries), lsi):
        if _largest_side(newer, at) <= limits.heat_split_max_share:
            return at
    return None


def size_split_point(part: Partition, lsi: bool = False) -> Position | None:
    """The median of the data a partition holds (its reservoir sample), or None if it cannot split."""
    return next(_candidates(part.low, ((h, sk, 1) for h, sk in part.sample), lsi), None)


def middle_of(low: Position, high: Position) -> Position | None:
    """The middle of a partition's hash range (a split for throughput), None for a single hash."""
    middle = (low[0] + min(high[0], HASH_SPACE)) // 2
    return (middle, b"") if (middle, b"") > low else None


def _candidates(
    low: Position, entries: Iterable[tuple[int, bytes, int]], lsi: bool = False
) -> Iterator[Position]:
    """The most balanced split points: first between item collections, then (no LSI) inside one."""
    ordered = sorted(entries)
    total = sum(count for _, _, count in ordered)
    boundaries = [lambda h, sk: (h, b"")] + ([] if lsi else [lambda h, sk: (h, sk)])
    for boundary in boundaries:
        best, best_gap, before, previous = None, total + 1, 0, None
        for key_hash, sort_key, count in ordered:
            at = boundary(key_hash, sort_key)
            if at != previous and at > low and abs(2 * before - total) < best_gap:
                best, best_gap = at, abs(2 * before - total)  # `before`: the weight left of `at`
            before, previous = before + count, at
        if best is not None:
            yield best


def _largest_side(entries: list[tuple[int, bytes, int]], at: Position) -> float:
    right = sum(count for h, sk, count in entries if (h, sk) >= at)
    total = sum(count for _, _, count in entries)
    return max(right, total - right) / total if total else 1.0
