"""The plan covers exactly what it must: every address of the boxes lies in a span, spans are ordered and
disjoint, and statistics only change how the boxes are cut, never what is covered."""

from __future__ import annotations

import bisect
import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from places import statistics
from places.density import Density
from places.planner import CostModel, Span, _coalesce, plan
from places.settings import IndexSettings
from zorder import Schema, UInt

SCHEMA = Schema.of(y=UInt(4), x=UInt(4), z=UInt(3))
INDEX = IndexSettings("T", "ix", SCHEMA, bucket_bits=3)
POINTS = [(y, x, z) for y in range(16) for x in range(16) for z in range(8)]


def _addresses(box_bounds: list[tuple[int, int]]) -> set[int]:
    ranges = [range(lo, hi + 1) for lo, hi in box_bounds]
    return {
        int.from_bytes(SCHEMA.encode({"y": y, "x": x, "z": z}))
        for y in ranges[0]
        for x in ranges[1]
        for z in ranges[2]
    }


def _data(seed: int) -> Density:
    rng = random.Random(seed)
    chosen = [p for p in POINTS if rng.random() < 0.3 and p[0] < 12]  # uneven: nothing above y = 11
    return statistics.build(
        SCHEMA, [SCHEMA.encode(dict(zip("yxz", p, strict=True))) for p in chosen], max_cells=40
    )


interval = st.tuples(st.integers(0, 15), st.integers(0, 15)).map(sorted)
small = st.tuples(st.integers(0, 7), st.integers(0, 7)).map(sorted)


@settings(max_examples=150, deadline=None)
@given(y=interval, x=interval, z=small, seed=st.integers(0, 3), share=st.sampled_from([0.0, 0.2, 5.0]))
def test_spans_cover_the_box_in_order_without_overlap(y, x, z, seed, share) -> None:  # type: ignore[no-untyped-def]
    box = SCHEMA.box({"y": y[0], "x": x[0], "z": z[0]}, {"y": y[1], "x": x[1], "z": z[1]})
    for density in (_data(seed), Density.uniform(SCHEMA)):
        spans = plan(INDEX, [box], density, CostModel(waste_share=share, min_gap_items=0.5)).spans
        keys = [(s.bucket, s.first, s.last) for s in spans]
        assert keys == sorted(keys) and all(a[2] < b[1] for a, b in itertools.pairwise(keys) if a[0] == b[0])
        assert all(s.first >> INDEX.bucket_shift == s.bucket == s.last >> INDEX.bucket_shift for s in spans)
        covered = {a for s in spans for a in range(s.first, s.last + 1)}
        assert _addresses([y, x, z]) <= covered


def test_two_boxes_across_a_seam_unite_into_one_plan() -> None:
    west, east = SCHEMA.box({"x": 0}, {"x": 2}), SCHEMA.box({"x": 13}, {"x": 15})
    spans = plan(INDEX, [west, east], Density.uniform(SCHEMA)).spans
    covered = {a for s in spans for a in range(s.first, s.last + 1)}
    assert _addresses([(0, 15), (0, 2), (0, 7)]) | _addresses([(0, 15), (13, 15), (0, 7)]) <= covered


def test_statistics_let_the_plan_read_through_empty_gaps() -> None:
    """Where the statistics see no items, merging costs nothing: fewer spans than on uniform estimates."""
    density = statistics.build(SCHEMA, [SCHEMA.encode({"y": 1, "x": 1, "z": 0})], max_cells=8)
    box = SCHEMA.box({"y": 0, "x": 0}, {"y": 9, "x": 9})
    assert len(plan(INDEX, [box], density).spans) < len(
        plan(INDEX, [box], Density.uniform(SCHEMA, 2048)).spans
    )


class _Line:
    """Estimates that are exact counts of known addresses (to test the cost decisions alone)."""

    def __init__(self, addresses: list[int]) -> None:
        self.addresses = sorted(addresses)

    def interval(self, first: int, last: int) -> float:
        return float(bisect.bisect_right(self.addresses, last) - bisect.bisect_left(self.addresses, first))


def test_neighbouring_spans_join_when_one_query_costs_no_more_read_units() -> None:
    spans = [Span(0, 0, 99, 5.0), Span(0, 200, 299, 5.0)]
    one_stray = _Line([*range(1, 6), 150, *range(201, 206)])
    assert _coalesce(spans, one_stray, CostModel()) == [Span(0, 0, 299, 10.0)]
    many_strays = _Line([*range(1, 6), *range(100, 110), *range(201, 206)])  # 10 extra reads, 10 results
    assert _coalesce(spans, many_strays, CostModel()) == spans
    other_bucket = [spans[0], Span(1, 200, 299, 5.0)]
    assert _coalesce(other_bucket, one_stray, CostModel()) == other_bucket


def test_spans_stay_apart_when_joining_would_cost_another_read_unit() -> None:
    full = [Span(0, 0, 99, 40.0), Span(0, 200, 299, 40.0)]  # 40 entries each: half a unit apiece
    both = _Line([*range(0, 40), 150, 151, *range(200, 240)])
    assert CostModel().read_units(82) == 1.5 > 2 * CostModel().read_units(40)
    assert _coalesce(full, both, CostModel()) == full
