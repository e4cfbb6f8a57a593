"""zorder.ranges: exact runs equal brute force; budgets give covering supersets, cheapest gaps merged."""

from __future__ import annotations

import time
from itertools import pairwise, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zorder.box import Box
from zorder.dimension import Dimension
from zorder.encodings import UInt
from zorder.ranges import ranges


def addresses_in(box: Box) -> list[int]:
    axes = [range(lo, hi + 1) for lo, hi in zip(box.lower, box.upper, strict=True)]
    return sorted(box.layout.interleave(point) for point in product(*axes))


def runs(addresses: list[int]) -> list[tuple[int, int]]:
    """Maximal runs of consecutive addresses: the brute-force exact answer."""
    out: list[tuple[int, int]] = []
    for z in addresses:
        if out and out[-1][1] + 1 == z:
            out[-1] = (out[-1][0], z)
        else:
            out.append((z, z))
    return out


def merged_cost(exact: list[tuple[int, int]], budget: int) -> int:
    """Addresses covered after merging the cheapest gaps of the exact runs down to ``budget`` ranges."""
    gaps = sorted(b[0] - a[1] - 1 for a, b in pairwise(exact))
    volume = sum(hi - lo + 1 for lo, hi in exact)
    return volume + sum(gaps[: max(0, len(exact) - budget)])


def covered(spans: list[tuple[int, int]]) -> int:
    return sum(hi - lo + 1 for lo, hi in spans)


def well_formed(spans: list[tuple[int, int]]) -> bool:
    sorted_and_apart = all(a[1] + 1 < b[0] for a, b in pairwise(spans))  # touching ranges would be merged
    return sorted_and_apart and all(lo <= hi for lo, hi in spans)


@st.composite
def small_boxes(draw: st.DrawFn) -> Box:
    n = draw(st.integers(1, 4))
    widths = draw(st.lists(st.integers(1, 5), min_size=n, max_size=n).filter(lambda ws: sum(ws) <= 12))
    bounds = [sorted((draw(st.integers(0, 2**w - 1)), draw(st.integers(0, 2**w - 1)))) for w in widths]
    dims = tuple(Dimension(f"d{i}", UInt(w)) for i, w in enumerate(widths))
    return Box(dims, tuple(b[0] for b in bounds), tuple(b[1] for b in bounds))


TH_BOX = Box((Dimension("y", UInt(3)), Dimension("x", UInt(3))), (2, 2), (6, 3))


def test_tropf_herzog_box() -> None:
    assert ranges(TH_BOX, None) == [(12, 15), (36, 39), (44, 45)]
    assert ranges(TH_BOX, 3) == ranges(TH_BOX, 64) == ranges(TH_BOX, None)
    assert ranges(TH_BOX, 2) == [(12, 15), (36, 45)]  # gap 40..43 (4) is cheaper than 16..35 (20)
    assert ranges(TH_BOX, 1) == [(12, 45)]


@settings(max_examples=300, deadline=None)
@given(small_boxes())
def test_exact_equals_brute_force(box: Box) -> None:
    assert ranges(box, None) == runs(addresses_in(box))


@settings(max_examples=300, deadline=None)
@given(small_boxes(), st.integers(1, 12))
def test_budget_covers_a_superset_and_merges_cheapest_gaps(box: Box, budget: int) -> None:
    exact = runs(addresses_in(box))
    spans = ranges(box, budget)
    assert 1 <= len(spans) <= budget and well_formed(spans)
    assert all(any(lo <= a and b <= hi for lo, hi in spans) for a, b in exact)  # covers every run
    assert spans[0][0] == box.zmin and spans[-1][1] == box.zmax
    if len(exact) <= budget:
        assert spans == exact  # exact when the budget allows
    assert covered(spans) == merged_cost(exact, budget)  # as few extra addresses as merging allows


def test_full_box_is_one_range() -> None:
    box = Box.full([Dimension("a", UInt(32)), Dimension("b", UInt(32))])
    assert ranges(box, None) == [(0, 2**64 - 1)]


def test_thin_box_in_a_wide_space_is_fast_with_a_budget() -> None:
    # One x value over every y: 2**32 exact runs, which must never be enumerated.
    dims = (Dimension("y", UInt(32)), Dimension("x", UInt(32)))
    box = Box(dims, (0, 5), (2**32 - 1, 5))
    start = time.perf_counter()
    spans = ranges(box, 64)
    assert time.perf_counter() - start < 1.0
    assert len(spans) == 64 and well_formed(spans)
    assert spans[0][0] == box.zmin and spans[-1][1] == box.zmax


def test_many_dims_mixed_widths_budgeted_cover_sample() -> None:
    dims = tuple(Dimension(n, UInt(w)) for n, w in (("a", 20), ("b", 7), ("c", 33)))
    box = Box(dims, (1000, 3, 123_456), (70_000, 100, 9_876_543))
    spans = ranges(box, 16)
    assert len(spans) <= 16 and well_formed(spans)
    for point in product((1000, 5000, 70_000), (3, 50, 100), (123_456, 9_876_543)):
        z = box.layout.interleave(point)
        assert any(lo <= z <= hi for lo, hi in spans)


@pytest.mark.parametrize("budget", [0, -1, 1.5, True])
def test_bad_budget(budget: object) -> None:
    with pytest.raises(ValueError, match="max_ranges"):
        ranges(TH_BOX, budget)  # type: ignore[arg-type]


def test_many_equal_gaps_stay_bounded_and_optimal() -> None:
    # x <= 2**16 - 2 over every y: a gap of one address after each y. Any 63 of them are as good as any
    # other; the split limit stops the search instead of finding all of them.
    dims = (Dimension("y", UInt(16)), Dimension("x", UInt(16)))
    box = Box(dims, (0, 0), (2**16 - 1, 2**16 - 2))
    start = time.perf_counter()
    spans = ranges(box, 64)
    assert time.perf_counter() - start < 2.0
    assert len(spans) == 64 and well_formed(spans)
    assert covered(spans) - box.volume == (2**16 - 1) - 63  # 65,535 gaps inside [zmin, zmax]; 63 kept
