"""tatami/console/zcells.py: a Z plan's ranges become cells that cover exactly the addresses the plan
reads, decoded by the index's own schema."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tatami.console.errors import BadParameter
from tatami.console.zcells import blocks, cells
from tatami_functions.places.table import PLACES, Z_INDEX
from zindex import Attribute, IndexedTable, ZIndex
from zorder import UInt


@given(st.integers(0, 2**40), st.integers(0, 2**20))
def test_blocks_are_aligned_and_cover_the_range_exactly(first: int, length: int) -> None:
    last = first + length
    found = list(blocks(first, last))
    assert found[0][0] == first and found[-1][1] == last
    assert all(a[1] + 1 == b[0] for a, b in itertools.pairwise(found))  # no gap, no overlap
    for low, high in found:
        size = high - low + 1
        assert size & (size - 1) == 0 and low % size == 0  # a power of two, starting at a multiple of it
    assert len(found) <= 2 * (last.bit_length() + 1)


def _cells(max_ranges: int | None) -> dict[str, Any]:
    schema = PLACES.schema(Z_INDEX)
    box = schema.box({"latitude": 30.0, "longitude": 125.0}, {"latitude": 46.0, "longitude": 146.0})
    ranges = [(low.hex(), high.hex()) for low, high in schema.ranges(box, max_ranges)]
    return cells(PLACES, Z_INDEX, ranges, ["longitude", "latitude"])


def test_the_cells_of_a_boxs_ranges_cover_every_place_in_the_box() -> None:
    """Every point of the box lies in a cell of its ranges, budgeted ones too (which read more)."""
    found = _cells(64)
    assert found["omitted"] == 0 and found["cells"]
    rng = random.Random(4)
    for _ in range(300):
        x, y = rng.uniform(125.0, 146.0), rng.uniform(30.0, 46.0)
        assert any(
            x0 - 0.01 <= x <= x1 + 0.01 and y0 - 0.01 <= y <= y1 + 0.01 for x0, x1, y0, y1 in found["cells"]
        )


def test_the_cells_of_a_boxs_exact_ranges_tile_the_box() -> None:
    """On a small grid, exact ranges (no budget) give cells inside the box that cover all of it."""
    grid = IndexedTable(
        "T", ("id",), (Attribute("x", UInt(4)), Attribute("y", UInt(4))), (ZIndex("g", ("x", "y"), 0),)
    )
    schema = grid.schema("g")
    box = schema.box({"x": 3, "y": 5}, {"x": 11, "y": 9})
    ranges = [(low.hex(), high.hex()) for low, high in schema.ranges(box, None)]
    found = cells(grid, "g", ranges, ["x", "y"])["cells"]
    covered = {(x, y) for x0, x1, y0, y1 in found for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)}
    assert covered == {(x, y) for x in range(3, 12) for y in range(5, 10)}


@pytest.mark.parametrize(
    ("index", "ranges", "axes", "field"),
    [
        ("places-population", [], ["longitude", "latitude"], "index"),
        (Z_INDEX, [], ["longitude"], "axes"),
        (Z_INDEX, [], ["longitude", "name"], "axes"),
        (Z_INDEX, [["zz", "1"]], ["longitude", "latitude"], "ranges"),
        (Z_INDEX, [["2", "1"]], ["longitude", "latitude"], "ranges"),
    ],
)
def test_bad_requests_name_their_field(
    index: str, ranges: list[list[str]], axes: list[str], field: str
) -> None:
    with pytest.raises(BadParameter) as raised:
        cells(PLACES, index, ranges, axes)
    assert raised.value.field == field
