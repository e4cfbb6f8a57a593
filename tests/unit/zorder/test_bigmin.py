"""zorder.bigmin: the Tropf-Herzog example, and BIGMIN / LITMAX equal to brute force on small spaces."""

from __future__ import annotations

import bisect
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from zorder.bigmin import bigmin, litmax, next_in_box, prev_in_box
from zorder.bits import interleaver
from zorder.box import Box
from zorder.dimension import Dimension
from zorder.encodings import UInt
from zorder.schema import Schema

# Tropf & Herzog (1981), "Multidimensional Range Search in Dynamically Balanced Trees", as retold in
# Wikipedia's "Z-order curve": an 8x8 grid (3 bits per dimension, y bits above x bits at each level),
# query rectangle x = 2..3, y = 2..6, so MIN = 12 and MAX = 45. A scan meeting F = 19 (outside the
# rectangle) jumps to BIGMIN = 36; scanning downwards, LITMAX = 15.
#
# The brief also mentions "x=3..5, y=5..10 on a 4-bit grid, z=19 -> BIGMIN 36"; brute force disagrees
# (there z=19 lies below the box's MIN, so BIGMIN is MIN: 39 with y first, 27 with x first), so that
# variant is checked for what it really gives, not for 36.
TH_BOX = Box((Dimension("y", UInt(3)), Dimension("x", UInt(3))), lower=(2, 2), upper=(6, 3))


def addresses_in(box: Box) -> list[int]:
    """Every address of the box, by enumerating its points: the brute-force reference."""
    layout = box.layout
    axes = [range(lo, hi + 1) for lo, hi in zip(box.lower, box.upper, strict=True)]
    return sorted(layout.interleave(point) for point in product(*axes))


def test_tropf_herzog_example() -> None:
    assert (TH_BOX.zmin, TH_BOX.zmax) == (12, 45)
    layout = TH_BOX.layout
    assert bigmin(19, 12, 45, layout) == 36
    assert litmax(19, 12, 45, layout) == 15
    inside = addresses_in(TH_BOX)
    assert inside == [12, 13, 14, 15, 36, 37, 38, 39, 44, 45]
    assert min(z for z in inside if z > 19) == 36 and max(z for z in inside if z < 19) == 15
    assert not TH_BOX.contains(19)
    assert layout.deinterleave(19) == (1, 5) and layout.deinterleave(36) == (4, 2)  # (y, x)


def test_tropf_herzog_example_through_the_schema() -> None:
    schema = Schema.of(y=UInt(3), x=UInt(3))
    box = schema.box({"x": 2, "y": 2}, {"x": 3, "y": 6})
    assert schema.next_in_box(bytes([19]), box) == bytes([36])
    assert schema.next_in_box(bytes([46]), box) is None
    assert schema.next_in_box(bytes([0]), box) == bytes([12])


def test_the_briefs_four_bit_variant_by_brute_force() -> None:
    for names, expected in ((("y", "x"), 39), (("x", "y"), 27)):
        dims = tuple(Dimension(n, UInt(4)) for n in names)
        bounds = {"x": (3, 5), "y": (5, 10)}
        box = Box(dims, tuple(bounds[n][0] for n in names), tuple(bounds[n][1] for n in names))
        assert box.zmin == expected
        assert next_in_box(19, box) == expected == addresses_in(box)[0]


@st.composite
def small_boxes(draw: st.DrawFn) -> Box:
    """2-4 dimensions of mixed widths, at most 12 address bits, any box."""
    n = draw(st.integers(2, 4))
    widths = draw(st.lists(st.integers(1, 5), min_size=n, max_size=n).filter(lambda ws: sum(ws) <= 12))
    lower, upper = [], []
    for w in widths:
        a, b = draw(st.integers(0, 2**w - 1)), draw(st.integers(0, 2**w - 1))
        lower.append(min(a, b))
        upper.append(max(a, b))
    dims = tuple(Dimension(f"d{i}", UInt(w)) for i, w in enumerate(widths))
    return Box(dims, tuple(lower), tuple(upper))


@settings(max_examples=300, deadline=None)
@given(small_boxes(), st.data())
def test_next_and_prev_in_box_equal_brute_force(box: Box, data: st.DataObject) -> None:
    inside = addresses_in(box)
    z = data.draw(st.integers(0, 2**box.layout.total_bits - 1))
    i = bisect.bisect_left(inside, z)
    assert next_in_box(z, box) == (inside[i] if i < len(inside) else None)
    j = bisect.bisect_right(inside, z)
    assert prev_in_box(z, box) == (inside[j - 1] if j else None)


@settings(max_examples=200, deadline=None)
@given(small_boxes(), st.data())
def test_bigmin_and_litmax_outside_the_box(box: Box, data: st.DataObject) -> None:
    inside = addresses_in(box)
    outside = sorted(set(range(box.zmin, box.zmax + 1)) - set(inside))
    if not outside:
        return
    z = data.draw(st.sampled_from(outside))
    layout = interleaver(box.layout.widths)
    assert bigmin(z, box.zmin, box.zmax, layout) == min(a for a in inside if a > z)
    assert litmax(z, box.zmin, box.zmax, layout) == max(a for a in inside if a < z)


def test_scan_with_bigmin_visits_exactly_the_box() -> None:
    # How a query loop uses it: jump to next_in_box, read, step past, repeat.
    visited, z = [], 0
    while (found := next_in_box(z, TH_BOX)) is not None:
        visited.append(found)
        z = found + 1
    assert visited == addresses_in(TH_BOX)
