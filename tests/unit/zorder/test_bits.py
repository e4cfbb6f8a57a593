"""zorder.bits: the documented bit order, round trips, and no silent truncation."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zorder.bits import Interleaver, deinterleave, interleave, interleaver, positions


def reference(values: tuple[int, ...], widths: tuple[int, ...]) -> int:
    """The bit order, spelled out: levels from the top; in a level, schema order; every dimension's
    most significant bit at the top level, so a short dimension is absent from the lowest levels."""
    top = max(widths)
    z = 0
    for level in reversed(range(top)):
        for value, width in zip(values, widths, strict=True):
            bit = level - (top - width)  # which of this dimension's bits sits at this level
            if bit >= 0:
                z = (z << 1) | (value >> bit & 1)
    return z


Layout = tuple[tuple[int, ...], tuple[int, ...]]  # (widths, values)


@st.composite
def layouts(draw: st.DrawFn, max_dims: int = 5, max_width: int = 70) -> Layout:
    widths = tuple(draw(st.lists(st.integers(1, max_width), min_size=1, max_size=max_dims)))
    values = tuple(draw(st.integers(0, (1 << w) - 1)) for w in widths)
    return widths, values


def test_two_dims_first_is_most_significant() -> None:
    # y2 x2 y1 x1 y0 x0 for schema (y, x): the seed's "y followed by x" and Tropf-Herzog's figure.
    assert interleave((0b010, 0b011), (3, 3)) == 0b001101
    assert interleave((2, 2), (3, 3)) == 12 and interleave((6, 3), (3, 3)) == 45


def test_short_dimensions_meet_the_others_at_the_top() -> None:
    # widths (y=2, x=4): y1 x3 y0 x2 x1 x0
    assert positions((2, 4)) == ((3, 5), (0, 1, 2, 4))
    assert interleave((0b11, 0b0000), (2, 4)) == 0b101000
    assert interleave((0b00, 0b1100), (2, 4)) == 0b010100
    # widths (a=1, b=3, c=2): a0 b2 c1 b1 c0 b0
    assert positions((1, 3, 2)) == ((5,), (0, 2, 4), (1, 3))


@settings(max_examples=300, deadline=None)
@given(layouts())
def test_matches_reference_and_round_trips(layout: Layout) -> None:
    widths, values = layout
    z = interleave(values, widths)
    assert z == reference(values, widths)
    assert 0 <= z < 1 << sum(widths)
    assert deinterleave(z, widths) == values


@settings(max_examples=50, deadline=None)
@given(layouts(max_dims=4, max_width=300))
def test_wide_layouts_use_relative_tables_correctly(layout: Layout) -> None:
    widths, values = layout
    z = interleave(values, widths)
    assert z == reference(values, widths)
    assert deinterleave(z, widths) == values


@settings(max_examples=200, deadline=None)
@given(layouts(max_dims=4, max_width=12), st.data())
def test_monotone_in_every_dimension(layout: Layout, data: st.DataObject) -> None:
    # What makes a box's corners its smallest and largest addresses.
    widths, values = layout
    d = data.draw(st.integers(0, len(widths) - 1))
    bigger = data.draw(st.integers(values[d], (1 << widths[d]) - 1))
    moved = (*values[:d], bigger, *values[d + 1 :])
    assert interleave(moved, widths) >= interleave(values, widths)


def test_extremes() -> None:
    layout = Interleaver((16, 16))
    assert layout.interleave((0, 0)) == 0
    assert layout.interleave((65535, 65535)) == (1 << 32) - 1
    assert layout.deinterleave((1 << 32) - 1) == (65535, 65535)
    assert layout.total_bits == 32 and layout.absolute


def test_layout_tables_for_bigmin() -> None:
    layout = Interleaver((3, 3))
    assert layout.dim_at == (1, 0, 1, 0, 1, 0)
    assert layout.bit_at == (0, 0, 1, 1, 2, 2)
    assert layout.below[4] == 0b000101  # x (positions 0, 2, 4): its positions below 4
    assert layout.dim_masks == (0b101010, 0b010101)


@pytest.mark.parametrize(
    ("values", "error"),
    [
        ((65536, 0), ValueError),  # pymorton would mask it to 0: never here
        ((-1, 0), ValueError),
        ((1.0, 0), TypeError),
        ((True, 0), TypeError),
        (("1", 0), TypeError),
        ((1,), ValueError),
    ],
)
def test_bad_values_raise(values: tuple[object, ...], error: type[Exception]) -> None:
    with pytest.raises(error):
        interleaver((16, 16)).interleave(values)  # type: ignore[arg-type]


def test_bad_values_raise_on_wide_layouts_too() -> None:
    with pytest.raises(ValueError, match="does not fit in 200"):
        Interleaver((200, 8)).interleave((1 << 200, 0))


@pytest.mark.parametrize("widths", [(), (0,), (3, -1), (2.0,)])
def test_bad_widths(widths: tuple[object, ...]) -> None:
    with pytest.raises(ValueError, match="widths"):
        Interleaver(widths)  # type: ignore[arg-type]


@pytest.mark.parametrize("z", [-1, 1 << 6, 2.0])
def test_bad_addresses(z: object) -> None:
    with pytest.raises(ValueError, match="address"):
        Interleaver((3, 3)).deinterleave(z)  # type: ignore[arg-type]


def test_interleavers_are_cached_and_compare_by_widths() -> None:
    assert interleaver((5, 7)) is interleaver((5, 7))
    assert Interleaver((5, 7)) == interleaver((5, 7))
