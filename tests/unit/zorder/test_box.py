"""zorder.box: validation, corners, volume, and membership of records and addresses."""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zorder.box import Box
from zorder.dimension import Dimension
from zorder.encodings import Fixed, Int, UInt

DIMS = (Dimension("population", UInt(8)), Dimension("delta", Int(4)))


def test_corners_volume_fractions() -> None:
    box = Box(DIMS, (10, 0), (19, 7))
    assert box.volume == 10 * 8
    assert box.fractions() == (10 / 256, 8 / 16)
    assert box.zmin == box.layout.interleave((10, 0)) and box.zmax == box.layout.interleave((19, 7))


def test_full_box() -> None:
    box = Box.full(DIMS)
    assert (box.lower, box.upper, box.volume) == ((0, 0), (255, 15), 2**12)
    assert box.fractions() == (1.0, 1.0)


def test_lower_above_upper_names_the_dimension() -> None:
    with pytest.raises(ValueError, match=r"lower key 7 > upper key 3 for 'population'"):
        Box(DIMS, (7, 0), (3, 0))


@pytest.mark.parametrize(("lower", "upper"), [((0, 0), (256, 0)), ((-1, 0), (3, 0)), ((0,), (1,))])
def test_keys_outside_the_dimension(lower: tuple[int, ...], upper: tuple[int, ...]) -> None:
    with pytest.raises(ValueError):
        Box(DIMS, lower, upper)


def test_contains_records_addresses_and_ints() -> None:
    box = Box(DIMS, (10, 8), (19, 15))  # delta keys 8..15 are values 0..7
    assert box.contains({"population": 12, "delta": 3, "other": "ignored"})
    assert not box.contains({"population": 12, "delta": -1})
    z = box.layout.interleave((12, 11))
    assert box.contains(z) and box.contains(z.to_bytes(2)) and box.contains(bytearray(z.to_bytes(2)))
    assert not box.contains(box.layout.interleave((20, 11)).to_bytes(2))


def test_contains_rejects_bad_input() -> None:
    box = Box.full(DIMS)
    with pytest.raises(ValueError, match="2 bytes"):
        box.contains(b"\x00")
    with pytest.raises(ValueError, match="missing dimension 'delta'"):
        box.contains({"population": 1})
    with pytest.raises(TypeError, match="dimension 'population'"):
        box.contains({"population": "many", "delta": 0})
    with pytest.raises(TypeError, match="mapping"):
        box.contains(["population"])  # type: ignore[arg-type]


@settings(max_examples=100, deadline=None)
@given(st.tuples(st.integers(0, 15), st.integers(0, 15)), st.tuples(st.integers(0, 7), st.integers(0, 7)))
def test_contains_matches_the_bounds(a: tuple[int, int], b: tuple[int, int]) -> None:
    dims = (Dimension("a", UInt(4)), Dimension("b", UInt(3)))
    box = Box(dims, (min(a), min(b)), (max(a), max(b)))
    count = 0
    for point in product(range(16), range(8)):
        inside = box.contains_point(point)
        assert inside == box.contains(box.layout.interleave(point))
        count += inside
        if inside:
            assert box.zmin <= box.layout.interleave(point) <= box.zmax  # corners bound every address
    assert count == box.volume


def test_boxes_are_immutable_values() -> None:
    box = Box([Dimension("lat", Fixed(-90, 90, 8))], [1], [2])  # type: ignore[arg-type]
    assert box.lower == (1,) and isinstance(box.dimensions, tuple)
    assert box == Box((Dimension("lat", Fixed(-90, 90, 8)),), (1,), (2,))
    with pytest.raises(AttributeError):
        box.lower = (0,)  # type: ignore[misc]
