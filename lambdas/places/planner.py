"""The query plan: which address ranges to Query so that a box is read exactly and cheaply.

A Query reads every item between its key bounds, in the box or not, and each Query is a round trip.
Exact Z runs read nothing outside the box but a box holds millions of them; one range per bucket reads
everything between the box's corners. The planner walks between the two: it splits the box as
``zorder.ranges`` does (a piece at the highest bit where its corners differ), but ranks pieces by the
*items* they would waste according to :class:`places.density.Density`, not by addresses, and stops once
the expected waste is a small share of the expected results (the cost model below). Gaps the statistics
expect to be (nearly) empty are read through rather than paid for with another round trip.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import count, pairwise
from typing import Any

from places.addressing import bucket_boxes
from places.density import Density
from places.settings import IndexSettings
from zorder import Box

_Piece = tuple[int, int, tuple[int, ...], tuple[int, ...]]  # first, last address; lower, upper keys


@dataclass(frozen=True, slots=True)
class CostModel:
    """When reading extra items beats another Query.

    A Query is a round trip and is billed by the bytes it reads, rounded up to 4 KB (half a read unit
    per 4 KB, eventually consistent): ~40 index entries of ``item_bytes`` cost what the smallest Query
    costs. The planner first keeps the expected out-of-box reads under ``waste_share`` of the expected
    results (read amplification ~1 + waste_share), never splitting to save fewer than ``min_gap_items``
    and stopping after ``max_splits`` splits (planning time). Then it joins neighbouring spans whenever
    one Query would cost no more read units than the two, provided the gap it reads through is at most
    ``coalesce_share`` of their expected results: a round trip saved for free, amplification bounded.
    """

    waste_share: float = 0.15
    min_gap_items: float = 0.5
    max_splits: int = 256
    item_bytes: int = 100  # a place in the GSI by DynamoDB's size rules (keys + projection): ~99 bytes
    coalesce_share: float = 0.1

    def read_units(self, items: float) -> float:
        """Expected read units of one Query that reads ``items`` entries.

        >>> CostModel().read_units(0), CostModel().read_units(3), CostModel().read_units(41)
        (0.0, 0.5, 1.0)
        """
        return 0.5 * math.ceil(items * self.item_bytes / 4096 - 1e-9) if items > 1e-9 else 0.0


@dataclass(frozen=True, slots=True)
class Span:
    """One Query: bucket ``bucket``, addresses ``first..last`` (ints, inclusive), ``expected`` matches
    among ``reads`` expected entries."""

    bucket: int
    first: int
    last: int
    expected: float = 0.0
    reads: float = 0.0


@dataclass(frozen=True, slots=True)
class Plan:
    spans: tuple[Span, ...]  # ordered by (bucket, first): the order results come back in
    expected_results: float
    expected_reads: float


def _split(piece: _Piece, box: Box) -> tuple[_Piece, _Piece]:
    """Cut a piece at the highest bit where its corners differ (same cut as ``zorder.ranges``)."""
    first, last, lo, hi = piece
    layout = box.layout
    p = (first ^ last).bit_length() - 1
    d, bit, below = layout.dim_at[p], 1 << p, layout.below[p]
    cut = hi[d] >> layout.bit_at[p] << layout.bit_at[p]  # first key of the upper half in dimension d
    low = (first, (last & ~bit) | below, lo, (*hi[:d], cut - 1, *hi[d + 1 :]))
    high = ((first | bit) & ~below, last, (*lo[:d], cut, *lo[d + 1 :]), hi)
    return low, high


class _Refiner:
    """Best-first refinement of every bucket's part of the boxes, by expected wasted items."""

    def __init__(self, density: Density, model: CostModel) -> None:
        self.density, self.model = density, model
        self.todo: list[tuple[float, int, int, Box, _Piece, float]] = []
        self.done: list[tuple[int, _Piece, float]] = []
        self.tie = count()
        self.waste = 0.0
        self.results = 0.0

    def add(self, bucket: int, box: Box, piece: _Piece) -> None:
        inside = self.density.box(piece[2], piece[3])
        waste = max(0.0, self.density.interval(piece[0], piece[1]) - inside)
        if waste > 0.0 and piece[0] != piece[1]:
            heapq.heappush(self.todo, (-waste, next(self.tie), bucket, box, piece, inside))
            self.waste += waste
        else:
            self.done.append((bucket, piece, inside))

    def run(self) -> None:
        target = max(self.model.waste_share * self.results, self.model.min_gap_items)
        for _ in range(self.model.max_splits):
            if not self.todo or self.waste <= target or -self.todo[0][0] <= self.model.min_gap_items:
                break
            negative, _, bucket, box, piece, _ = heapq.heappop(self.todo)
            self.waste += negative
            for child in _split(piece, box):
                self.add(bucket, box, child)

    def pieces(self) -> list[tuple[int, int, int, float]]:
        found = [(b, p[0], p[1], i) for b, p, i in self.done]
        found += [(b, p[0], p[1], i) for _, _, b, _, p, i in self.todo]
        return sorted(found)


def _merge(
    pieces: list[tuple[int, int, int, float]], density: Density, budget: float, model: CostModel
) -> list[Span]:
    """Join neighbouring pieces of a bucket across the gaps cheapest to read, within the budget."""
    joined: list[list[Any]] = []
    for bucket, first, last, inside in pieces:  # overlapping pieces (two boxes across the dateline) unite
        if joined and joined[-1][0] == bucket and first <= joined[-1][2] + 1:
            joined[-1][2] = max(joined[-1][2], last)
            joined[-1][3] += inside
        else:
            joined.append([bucket, first, last, inside])
    gaps = sorted(
        (density.interval(a[2] + 1, b[1] - 1), i) for i, (a, b) in enumerate(pairwise(joined)) if a[0] == b[0]
    )
    merge = set()
    for items, i in gaps:
        if items <= model.min_gap_items or items <= budget:
            budget -= max(0.0, items - model.min_gap_items)
            merge.add(i)
    spans: list[Span] = []
    start, expected = (joined[0][1], 0.0) if joined else (0, 0.0)
    for i, (bucket, _, last, inside) in enumerate(joined):
        expected += inside
        if i not in merge:
            spans.append(Span(bucket, start, last, expected))
            if i + 1 < len(joined):
                start, expected = joined[i + 1][1], 0.0
    return spans


def _coalesce(spans: list[Span], density: Density, model: CostModel) -> list[Span]:
    """Join neighbouring spans of a bucket where one Query costs no more read units than two."""
    out: list[Span] = []
    for span in spans:
        previous = out[-1] if out else None
        if previous is not None and previous.bucket == span.bucket:
            apart = density.interval(previous.first, previous.last), density.interval(span.first, span.last)
            joined = density.interval(previous.first, span.last)
            results = previous.expected + span.expected
            if joined - sum(apart) <= model.coalesce_share * max(results, 1.0) and model.read_units(
                joined
            ) <= sum(model.read_units(n) for n in apart):
                out[-1] = Span(span.bucket, previous.first, span.last, results)
                continue
        out.append(span)
    return out


def plan(
    settings: IndexSettings, boxes: Sequence[Box], density: Density, model: CostModel | None = None
) -> Plan:
    """The spans to Query for the union of ``boxes`` (disjoint boxes, e.g. the two sides of the dateline).

    >>> from zorder import Schema, UInt
    >>> s = IndexSettings("T", "ix", Schema.of(y=UInt(3), x=UInt(3)), bucket_bits=0)
    >>> p = plan(s, [s.schema.box({"x": 2, "y": 2}, {"x": 3, "y": 6})], Density.uniform(s.schema, 64))
    >>> [(span.first, span.last) for span in p.spans]
    [(12, 15), (36, 39), (44, 45)]
    """
    model = model or CostModel()
    refiner = _Refiner(density, model)
    for box in boxes:
        for bucket, part in bucket_boxes(settings, box):
            refiner.results += density.box(part.lower, part.upper)
            refiner.add(bucket, part, (part.zmin, part.zmax, part.lower, part.upper))
    refiner.run()
    target = max(model.waste_share * refiner.results, model.min_gap_items)
    merged = _merge(refiner.pieces(), density, target - refiner.waste, model)
    spans = [
        replace(span, reads=density.interval(span.first, span.last))
        for span in _coalesce(merged, density, model)
    ]
    return Plan(tuple(spans), refiner.results, sum(span.reads for span in spans))
