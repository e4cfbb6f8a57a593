"""What any plan could achieve on this data: the bound the goals are measured against.

An oracle that knows every address chooses its Query ranges over the sorted index itself: the
result set of a box falls into maximal runs of consecutive index entries, and the oracle merges the
runs across the smallest gaps first while a read budget allows. It bounds what a statistics-driven
planner can reach:

* ``min_queries_*``: the fewest Queries that read at most 1.3x (or 2x) the box's results;
* ``rcu_at_2x``: the fewest RCU among those merges with reads <= 2x results, beside the single
  ``BETWEEN zmin AND zmax`` Query per bucket, both under one accounting (DynamoDB's item-size rules,
  each Query rounded up to 4 KB, half a unit per 4 KB for eventually consistent reads).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from itertools import pairwise
from typing import Any

from places.addressing import placement

_KEYS_SIZE = 2 + 8 + 7 + 12  # "id" + zaddr (8 bytes) + "zbucket", "places-z#..." on top of the item


def item_size(item: dict[str, Any]) -> int:
    """Bytes of an item in the GSI by DynamoDB's rules (names + values; numbers ~1 byte per 2 digits)."""
    size = _KEYS_SIZE
    for name, value in item.items():
        size += len(name.encode())
        if isinstance(value, str):
            size += len(value.encode())
        elif isinstance(value, int | Decimal):
            size += len(str(value).lstrip("-").replace(".", "")) // 2 + 1
    return size


def rcu(size: int) -> float:
    """One eventually consistent Query reading ``size`` bytes."""
    return 0.5 * math.ceil(size / 4096)


@dataclass
class Index:
    """The GSI as the oracle sees it: every entry's address, bucket, id and size, in index order."""

    addresses: list[int]
    buckets: list[int]
    ids: list[str]
    prefix_sizes: list[int]  # prefix_sizes[i] = bytes of entries [0, i)

    @classmethod
    def build(cls, settings: Any, rows: Iterable[dict[str, Any]]) -> Index:
        entries = sorted(
            (int.from_bytes(placement(settings, row).address), row["id"], item_size(row)) for row in rows
        )
        prefix = [0]
        for _, _, size in entries:
            prefix.append(prefix[-1] + size)
        return cls(
            [a for a, _, _ in entries],
            [a >> settings.bucket_shift for a, _, _ in entries],
            [i for _, i, _ in entries],
            prefix,
        )

    def bytes_between(self, first: int, last: int) -> int:
        """Bytes of the entries at index positions first..last (inclusive)."""
        return self.prefix_sizes[last + 1] - self.prefix_sizes[first]

    def positions(self, first_address: int, last_address: int) -> tuple[int, int]:
        return bisect.bisect_left(self.addresses, first_address), bisect.bisect_right(
            self.addresses, last_address
        )


@dataclass
class Bound:
    min_queries_1_3: int
    min_queries_2: int
    rcu_at_2x: float
    single_rcu: float


def _runs(index: Index, where: list[int]) -> list[list[int]]:
    runs: list[list[int]] = []
    for k in where:
        if runs and runs[-1][1] == k - 1 and index.buckets[k] == index.buckets[runs[-1][0]]:
            runs[-1][1] = k
        else:
            runs.append([k, k])
    return runs


def _min_queries(runs: list[list[int]], index: Index, found: int, share: float) -> int:
    same_bucket = (pair for pair in pairwise(runs) if index.buckets[pair[0][1]] == index.buckets[pair[1][0]])
    gaps = sorted(b[0] - a[1] - 1 for a, b in same_bucket)
    queries, budget = len(runs), share * found
    for gap in gaps:
        if gap > budget:
            break
        budget -= gap
        queries -= 1
    return queries


def _min_rcu(runs: list[list[int]], index: Index, found: int) -> float:
    """Merge smallest gaps first while reads stay <= 2x results; the cheapest state seen."""
    segments = [list(r) for r in runs]
    total = sum(rcu(index.bytes_between(a, b)) for a, b in segments)
    best, reads = total, found
    order = sorted(
        (runs[i + 1][0] - runs[i][1] - 1, i)
        for i in range(len(runs) - 1)
        if index.buckets[runs[i][1]] == index.buckets[runs[i + 1][0]]
    )
    head = list(range(len(runs)))  # union-find: segment i was merged into head[i]

    def find(i: int) -> int:
        while head[i] != i:
            i = head[i]
        return i

    for gap, i in order:
        if reads + gap > 2 * found:
            break
        left, right = find(i), find(i + 1)
        before = rcu(index.bytes_between(*segments[left])) + rcu(index.bytes_between(*segments[right]))
        segments[left][1] = segments[right][1]
        head[right] = left
        total += rcu(index.bytes_between(*segments[left])) - before
        reads += gap
        best = min(best, total)
    return best


def bound(index: Index, settings: Any, request: Any, found_ids: set[str]) -> Bound:
    """The oracle's figures for one box whose results are ``found_ids``."""
    single, where = 0.0, list[int]()
    for box in request.boxes(settings.schema, settings.domain):
        shift = settings.bucket_shift
        for number in range(box.zmin >> shift, (box.zmax >> shift) + 1):
            first = max(box.zmin, number << shift)
            last = min(box.zmax, ((number + 1) << shift) - 1)
            i, j = index.positions(first, last)
            single += rcu(index.bytes_between(i, j - 1)) if j > i else 0.0
            where.extend(k for k in range(i, j) if index.ids[k] in found_ids)
    where = sorted(set(where))
    if not where:
        return Bound(0, 0, 0.0, single)
    runs = _runs(index, where)
    return Bound(
        _min_queries(runs, index, len(where), 0.3),
        _min_queries(runs, index, len(where), 1.0),
        _min_rcu(runs, index, len(where)),
        single,
    )
