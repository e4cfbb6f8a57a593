"""Plans over a Z index: which address ranges to Query so that the boxes are read exactly and cheaply.

A Query reads every entry between its key bounds, in the boxes or not, and each is a round trip. The
planner first cuts the boxes into *leaves*: it splits at the highest bit where a piece's corners differ
(as ``zorder.ranges`` does), always where a piece spans two buckets (a Query reads one partition), then
best-first where the statistics expect the most entries outside the boxes. Between two neighbouring
leaves lies a gap that no box reaches, so a plan may skip it at the price of one more Query. Starting
from one Query per bucket (the single ``BETWEEN``), the planner cuts gaps largest first and keeps the
cut count whose cost (read units, round trips, entries read: :class:`zindex.plan.CostModel`) is lowest.
Statistics only decide which gaps to skip: every leaf is always read, so results never depend on them.
"""

from __future__ import annotations

import heapq
from bisect import bisect_left, bisect_right, insort
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import accumulate, count
from typing import TYPE_CHECKING

from zindex.plan import CostModel, Estimate, Plan, Span, calls
from zindex.sizes import read_units
from zorder import Box
from zorder.bits import Interleaver

if TYPE_CHECKING:
    from zindex.spec import Index
    from zindex.statistics import IndexStats

__all__ = ["ZPlanner"]

MAX_SPLITS = 96  # best-first splits beyond the forced ones: bounds planning time
MIN_WASTE = 0.5  # a piece expected to hold less waste than this is not worth splitting
SAMPLE = 16  # sample addresses tested per piece to estimate its share inside the box
SAMPLE_PRUNED = 6  # ... when the plan cannot win and only needs a coarse estimate
WALK_LIMIT = 25  # the BIGMIN walk's Limit (Tropf-Herzog's loop, as the naive alternative runs it)

_Piece = tuple[int, int, tuple[int, ...], tuple[int, ...]]  # first, last address; lower, upper keys


@dataclass(frozen=True, slots=True)
class _Leaf:
    first: int
    last: int
    inside: float  # entries expected inside the boxes


def _split(piece: _Piece, layout: Interleaver) -> tuple[_Piece, _Piece]:
    """Cut a piece at the highest bit where its corners differ (same cut as ``zorder.ranges``)."""
    first, last, lo, hi = piece
    p = (first ^ last).bit_length() - 1
    d, bit, below = layout.dim_at[p], 1 << p, layout.below[p]
    cut = hi[d] >> layout.bit_at[p] << layout.bit_at[p]  # first key of the upper half in dimension d
    low = (first, (last & ~bit) | below, lo, (*hi[:d], cut - 1, *hi[d + 1 :]))
    high = ((first | bit) & ~below, last, (*lo[:d], cut, *lo[d + 1 :]), hi)
    return low, high


class _Probe:
    """Tests addresses against one box without deinterleaving them: a dimension's bits, masked out of
    an address, keep that dimension's order, so ``lo <= address & mask <= hi`` per dimension suffices."""

    def __init__(self, box: Box) -> None:
        self.tests = box.masked_bounds()

    def count(self, addresses: Sequence[int], start: int, stop: int, step: int) -> int:
        """How many of ``addresses[start:stop:step]`` lie in the box (the planner's hot loop)."""
        found = 0
        for k in range(start, stop, step):
            address = addresses[k]
            for mask, lo, hi in self.tests:
                if not lo <= address & mask <= hi:
                    break
            else:
                found += 1
        return found


class ZPlanner:
    """Leaves, gaps and the candidate plans of one request on one Z index."""

    def __init__(
        self,
        index: Index,  # the Z index (its plans carry it as their access)
        boxes: Sequence[Box],
        stats: IndexStats,
        shift: int,
        model: CostModel,
        bound: float = float("inf"),
    ) -> None:
        self.index, self.stats, self.shift, self.model = index, stats, shift, model
        self.layout = boxes[0].layout
        self.points = stats.keys.firsts  # one address per histogram group: a sample of the index
        # a piece is worth splitting when the entries it would skip cost more than one more Query
        per_item = model.read_weight + stats.entry_bytes / 8192
        self.min_waste = max(MIN_WASTE, model.query_weight / per_item / 4)
        parts = [
            (part, probe)
            for box, probe in ((box, _Probe(box)) for box in boxes)
            for part in self._parts((box.zmin, box.zmax, box.lower, box.upper))
        ]
        # Every part is at least one Query of half a read unit: past ``bound`` (the cost of a plan
        # already found) no cut set can win, so the parts are estimated coarsely and not refined.
        self.pruned = len(parts) * (model.query_weight + 0.5) >= bound
        self.sample = SAMPLE_PRUNED if self.pruned else SAMPLE
        leaves = self._refine(parts, 0 if self.pruned else MAX_SPLITS)
        self.leaves = _union(sorted(leaves, key=lambda leaf: leaf.first), shift)
        self.results = sum(leaf.inside for leaf in self.leaves)

    def reads(self, first: int, last: int) -> float:
        return self.stats.keys.count(first, last)

    def _inside(self, first: int, last: int, reads: float, probe: _Probe) -> float:
        """Entries expected inside the box among the ``reads`` of ``first..last``: the share of the
        histogram's sample addresses in that range that the box holds (at most SAMPLE of them tested)."""
        if not reads:
            return 0.0
        i, j = bisect_left(self.points, first), bisect_right(self.points, last)
        if i == j:  # fewer entries than a histogram group: no sample to judge by
            return reads / 2
        step = -(-(j - i) // self.sample)
        return reads * probe.count(self.points, i, j, step) / len(range(i, j, step))

    def _parts(self, root: _Piece) -> list[_Piece]:
        """The box cut wherever a piece spans two buckets (a Query reads one partition)."""
        forced, parts = [root], []
        while forced:
            piece = forced.pop()
            if piece[0] >> self.shift != piece[1] >> self.shift:
                forced.extend(_split(piece, self.layout))
            else:
                parts.append(piece)
        return parts

    def _refine(self, parts: list[tuple[_Piece, _Probe]], splits: int) -> list[_Leaf]:
        """Split, best first, the pieces where the statistics expect the most entries outside the box."""
        tie = count()
        todo: list[tuple[float, int, _Piece, float, _Probe]] = []
        done: list[_Leaf] = []
        for part, probe in parts:
            self._push(todo, done, part, tie, probe)
        for _ in range(splits):
            if not todo:
                break
            _, _, piece, _, probe = heapq.heappop(todo)
            for child in _split(piece, self.layout):
                self._push(todo, done, child, tie, probe)
        return done + [_Leaf(p[0], p[1], inside) for _, _, p, inside, _ in todo]

    def _push(
        self,
        todo: list[tuple[float, int, _Piece, float, _Probe]],
        done: list[_Leaf],
        piece: _Piece,
        tie: count[int],
        probe: _Probe,
    ) -> None:
        reads = self.reads(piece[0], piece[1])
        inside = self._inside(piece[0], piece[1], reads, probe)
        waste = reads - inside
        if waste > self.min_waste and piece[0] != piece[1]:
            heapq.heappush(todo, (-waste, next(tie), piece, inside, probe))
        else:
            done.append(_Leaf(piece[0], piece[1], inside))

    def candidates(self) -> list[Plan]:
        """One Query per bucket (``z-between``), the cheapest cut set (``z-ranges``), the BIGMIN walk."""
        forced, optional = self._gaps()
        best = self._best_cut_count(forced, optional)
        between = self._plan("z-between", forced)
        ranges = (
            replace(between, kind="z-ranges")
            if not best
            else self._plan("z-ranges", sorted([*forced, *optional[:best]]))
        )
        return [between, ranges, self._walk(between, optional)]

    def _gaps(self) -> tuple[list[int], list[int]]:
        """Gap ``g`` lies between leaves ``g`` and ``g + 1``: forced where they are in two buckets (a
        Query reads one), optional otherwise, the optional ones largest first."""
        leaves, shift = self.leaves, self.shift
        forced: list[int] = []
        optional: list[int] = []
        for g in range(len(leaves) - 1):
            (forced if leaves[g].first >> shift != leaves[g + 1].first >> shift else optional).append(g)
        items = {g: self.reads(leaves[g].last + 1, leaves[g + 1].first - 1) for g in optional}
        return forced, sorted((g for g in optional if items[g] >= MIN_WASTE), key=lambda g: -items[g])

    def _best_cut_count(self, forced: list[int], optional: list[int]) -> int:
        """How many of the optional gaps (largest first) to skip for the lowest cost."""
        size, model, leaves = self.stats.entry_bytes, self.model, self.leaves
        cuts, end = list(forced), len(leaves) - 1

        def terms(a: int, b: int) -> tuple[float, float, float]:
            reads = self.reads(leaves[a].first, leaves[b].last)
            return reads, float(calls(reads, size)), read_units(reads, size)

        totals = [0.0, 0.0, 0.0]
        for a, b in zip([-1, *forced], [*forced, end], strict=True):
            totals = [t + x for t, x in zip(totals, terms(a + 1, b), strict=True)]
        best, best_cost = 0, model.cost(Estimate(totals[0], 0, totals[1], totals[2]))
        for n, gap in enumerate(optional, 1):
            at = bisect_left(cuts, gap)
            a, b = (cuts[at - 1] + 1 if at else 0), (cuts[at] if at < len(cuts) else end)
            before, left, right = terms(a, b), terms(a, gap), terms(gap + 1, b)
            totals = [t - x + y + z for t, x, y, z in zip(totals, before, left, right, strict=True)]
            insort(cuts, gap)
            cost = model.cost(Estimate(totals[0], 0, totals[1], totals[2]))
            if cost < best_cost:
                best, best_cost = n, cost
            elif n > 2 * best + 16:  # far past the best: more cuts only add round trips
                break
        return best

    def _spans(self, cuts: Sequence[int]) -> list[Span]:
        inside = [0.0, *accumulate(leaf.inside for leaf in self.leaves)]
        spans, start = [], 0
        for end in (*cuts, len(self.leaves) - 1):
            first, last = self.leaves[start].first, self.leaves[end].last
            expected = inside[end + 1] - inside[start]
            spans.append(Span(first >> self.shift, first, last, expected, self.reads(first, last)))
            start = end + 1
        return spans

    def _plan(self, kind: str, cuts: Sequence[int]) -> Plan:
        spans, size = self._spans(cuts), self.stats.entry_bytes
        reads = sum(s.reads for s in spans)
        queries = sum(calls(s.reads, size) for s in spans)
        rcu = sum(read_units(s.reads, size) for s in spans)
        detail = {"ranges": len(spans), "buckets": len({s.partition for s in spans})}
        estimate = Estimate(reads, self.results, queries, rcu)
        return Plan(kind, self.index.name, tuple(spans), estimate, detail=detail, access=self.index)

    def _walk(self, between: Plan, optional: list[int]) -> Plan:
        """Tropf-Herzog's loop: Queries of ``WALK_LIMIT`` entries from each bucket's first address,
        jumping over every gap that holds entries (reading up to a Query's worth of them first)."""
        leaves, size = self.leaves, self.stats.entry_bytes
        crossed = [self.reads(leaves[g].last + 1, leaves[g + 1].first - 1) for g in optional]
        # inside a leaf the walk reads what a Query of it would; over a gap, a Query's worth at most
        reads = sum(self.reads(leaf.first, leaf.last) for leaf in leaves) + sum(
            min(g, WALK_LIMIT) for g in crossed
        )
        queries = len(between.spans) + len(crossed) + reads / WALK_LIMIT
        estimate = Estimate(reads, self.results, queries, queries * read_units(WALK_LIMIT, size))
        return replace(
            between, kind="z-walk", estimate=estimate, query_limit=WALK_LIMIT, detail={"limit": WALK_LIMIT}
        )


def _union(leaves: list[_Leaf], shift: int) -> list[_Leaf]:
    """Overlapping leaves (two boxes across a seam interleave in Z order) become one."""
    out: list[_Leaf] = []
    for leaf in leaves:
        if out and leaf.first <= out[-1].last + 1 and leaf.first >> shift == out[-1].first >> shift:
            last = out[-1]
            out[-1] = _Leaf(last.first, max(last.last, leaf.last), last.inside + leaf.inside)
        else:
            out.append(leaf)
    return out
