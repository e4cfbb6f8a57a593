"""zorder.cost: the seed's cost formula, generalised to ranges and mixed widths; its old name,
zorder.planner, still imports (with a DeprecationWarning)."""

from __future__ import annotations

import importlib
import math
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zorder import Schema, UInt, estimate, explain, formula_rows, seed_formula
from zorder.encodings import Fixed, Timestamp

SEED = Schema.of(a=UInt(16), b=UInt(16), c=UInt(16), d=UInt(16))


def test_the_old_module_name_still_imports_and_says_it_is_deprecated() -> None:
    sys.modules.pop("zorder.planner", None)
    with pytest.warns(DeprecationWarning, match="import zorder.cost"):
        planner = importlib.import_module("zorder.planner")
    assert planner.estimate is estimate and planner.seed_formula is seed_formula


def test_seed_formula_exact_and_fractional() -> None:
    assert [seed_formula(64, 4, b) for b in range(5)] == [2**64, 2**48, 2**32, 2**16, 1]
    assert seed_formula(64, 4, 3.5) == pytest.approx(2**8)


def test_exact_bounds_reproduce_the_formula() -> None:
    for b in range(5):
        bound = dict(list({"a": 5, "b": 2, "c": 8, "d": 1}.items())[:b])
        assert estimate(SEED, SEED.box(bound, bound)) == seed_formula(64, 4, b)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 16), min_size=4, max_size=4))
def test_ranges_generalise_by_selected_fraction(pinned_bits: list[int]) -> None:
    # A range of 2**k keys in a 16-bit dimension pins 16-k bits: b_d = (16-k)/16, as in the formula.
    lower = {name: 0 for name in "abcd"}
    upper = {name: 2 ** (16 - p) - 1 for name, p in zip("abcd", pinned_bits, strict=True)}
    box = SEED.box(lower, upper)
    b = sum(pinned_bits) / 16
    assert estimate(SEED, box) == pytest.approx(seed_formula(64, 4, b))
    assert estimate(SEED, box) == 2**64 * math.prod(box.fractions())
    assert sum(d.pinned for d in explain(SEED, box).dimensions) == pytest.approx(b)


def test_mixed_widths_multiply_selected_keys() -> None:
    schema = Schema.of(lat=Fixed(-90, 90, 10), when=Timestamp(44), n=UInt(6))
    box = schema.box({"n": 4}, {"n": 4})
    assert estimate(schema, box) == 2**10 * 2**44


def test_explain_reports_bounds_and_budget() -> None:
    schema = Schema.of(y=UInt(3), x=UInt(3))
    box = schema.box({"x": 2, "y": 2}, {"x": 3, "y": 6})
    exact = explain(schema, box, max_ranges=64)
    assert (exact.addresses, exact.ranges, exact.covered, exact.search_space) == (10, 3, 10, 64)
    assert exact.share == 10 / 64
    assert [d.shown for d in exact.dimensions] == ["2 .. 6", "2 .. 3"]
    assert explain(schema, schema.box()).dimensions[0].shown == "any"
    assert explain(schema, box).ranges is None


def test_explain_shows_values_and_survives_undecodable_keys() -> None:
    schema = Schema.of(when=Timestamp(64), lat=Fixed(-90, 90, 16))
    box = schema.box({"when": "2024-01-01T00:00Z", "lat": 35.5}, {"lat": 35.5})
    shown = [d.shown for d in explain(schema, box).dimensions]
    assert shown[0].startswith("2024-01-01 00:00:00+00:00 .. key ")  # year 292 million: not a datetime
    assert abs(float(shown[1]) - 35.5) <= 180 / 65535 / 2  # the centre of 35.5's step


def test_formula_rows_default_values_and_mixed_widths() -> None:
    rows = formula_rows(Schema.of(a=UInt(8), b=UInt(24)))
    assert [r.query for r in rows] == ["a = ? AND b = ?", "a = ?", "<unbounded>"]
    assert [r.addresses for r in rows] == [1, 2**24, 2**32]  # real boxes, not the equal-width formula
    assert rows[1].simplified == "2^16"  # what the seed's formula would say
    assert formula_rows(Schema.of(a=UInt(8), b=UInt(8), c=UInt(8)))[1].simplified == "2^8"
    assert formula_rows(Schema.of(a=UInt(5), b=UInt(5), c=UInt(1)))[1].simplified == "2^3.67"


def test_foreign_box_is_rejected() -> None:
    with pytest.raises(ValueError, match="another schema"):
        estimate(SEED, Schema.of(a=UInt(16)).box())
