"""Requests (bounds, the antimeridian, filters) and placements (addresses, buckets, unencodable values)."""

from __future__ import annotations

import math
from decimal import Decimal as D

import pytest
from boto3.dynamodb.conditions import ConditionExpressionBuilder

from places.addressing import bucket_boxes, has_dimensions, placement
from places.exceptions import BadQueryError, UnencodableError
from places.query import SearchRequest
from places.settings import IndexSettings
from zorder import Fixed, Schema, UInt

SCHEMA = Schema.of(latitude=Fixed(-90, 90, 16), longitude=Fixed(-180, 180, 16), population=UInt(32))
INDEX = IndexSettings("T", "places-z", SCHEMA, bucket_bits=6)
LON = frozenset({"longitude"})


def test_min_above_max_names_the_field_except_for_longitude() -> None:
    with pytest.raises(BadQueryError, match="latitude_min") as caught:
        SearchRequest({"latitude": (D(10), D(5))}, LON)
    assert caught.value.field == "latitude_min"
    assert SearchRequest({"longitude": (D(170), D(-170))}, LON).wraps("longitude")


def test_a_wrapping_longitude_is_two_boxes_and_one_filter() -> None:
    request = SearchRequest({"longitude": (D(170), D(-170)), "latitude": (D(-20), D(-10))}, LON)
    west, east = request.boxes(SCHEMA)
    assert (west.lower[1], east.upper[1]) == (0, 2**16 - 1)  # -180.. and ..180
    expression = ConditionExpressionBuilder().build_expression(request.condition())
    assert " OR " in expression.condition_expression and "BETWEEN" in expression.condition_expression
    assert request.matches({"latitude": D(-15), "longitude": D(179)}) and not request.matches(
        {"latitude": D(-15), "longitude": D(0)}
    )
    assert not request.matches({"longitude": D(179)})  # a missing dimension never matches


def test_scope_is_canonical() -> None:
    a = SearchRequest({"latitude": (D(1), None), "population": (None, 5)}, LON)
    b = SearchRequest({"population": (None, 5), "latitude": (D(1), None)}, LON)
    assert a.scope() == b.scope() != SearchRequest({"latitude": (D(1), None)}, LON).scope()


def test_placement_is_the_address_and_its_top_bits() -> None:
    where = placement(INDEX, {"latitude": D("35.6895"), "longitude": D("139.69171"), "population": 8336599})
    assert where.address == SCHEMA.encode(
        {"latitude": 35.6895, "longitude": 139.69171, "population": 8336599}
    )
    assert where.bucket == f"places-z#{int.from_bytes(where.address) >> 58:02x}"


@pytest.mark.parametrize(
    "values",
    [
        {"latitude": math.nan},
        {"latitude": D("NaN")},
        {"population": D("sNaN")},
        {"latitude": "35.6"},
        {"latitude": True},
        {"latitude": 91},
        {"population": -1},
        {"population": D("1.5")},
        {"population": 2**32},
    ],
)
def test_unencodable_values_raise_naming_the_attribute(values: dict[str, object]) -> None:
    item = {"latitude": 1, "longitude": 2, "population": 3, **values}
    with pytest.raises(UnencodableError, match=next(iter(values))):
        placement(INDEX, item)


def test_values_beyond_the_domain_saturate_and_bounds_are_clamped_to_it() -> None:
    capped = IndexSettings("T", "places-z", SCHEMA, bucket_bits=6, domain={"population": (None, 2**20 - 1)})
    at_ceiling = placement(capped, {"latitude": 1, "longitude": 2, "population": 2**20 - 1})
    assert placement(capped, {"latitude": 1, "longitude": 2, "population": 9_000_000}) == at_ceiling
    assert placement(capped, {"latitude": 1, "longitude": 2, "population": 2**20 - 2}) != at_ceiling
    with pytest.raises(UnencodableError, match="population"):  # no floor: the encoding's own range
        placement(capped, {"latitude": 1, "longitude": 2, "population": -1})
    (box,) = SearchRequest({"latitude": (D(0), D(1)), "longitude": (D(10), D(11))}, LON).boxes(
        SCHEMA, capped.domain
    )
    assert box.upper[2] == 2**20 - 1 and len(bucket_boxes(capped, box)) == 1  # open population: one bucket
    (above,) = SearchRequest({"population": (5_000_000, 6_000_000)}, LON).boxes(SCHEMA, capped.domain)
    assert above.lower[2] == above.upper[2] == 2**20 - 1  # among the places at the ceiling
    city = placement(capped, {"latitude": 1, "longitude": 2, "population": 5_500_000})
    assert above.contains(int.from_bytes(city.address))


def test_has_dimensions() -> None:
    assert has_dimensions(INDEX, {"latitude": 1, "longitude": 2, "population": 0})
    assert not has_dimensions(INDEX, {"latitude": 1, "longitude": 2})
    assert not has_dimensions(INDEX, {"latitude": 1, "longitude": 2, "population": None})


def test_bucket_boxes_partition_the_box() -> None:
    box = SCHEMA.box({"latitude": -10, "longitude": 80}, {"latitude": 10, "longitude": 100})
    parts = bucket_boxes(INDEX, box)
    # The equator and 90 degrees east cut it in four; the two top population bits of an open population
    # bound (always zero below a domain's ceiling) make those 16 without a domain.
    assert len(parts) == 16 and sum(b.volume for _, b in parts) == box.volume
    for number, part in parts:
        assert part.zmin >> INDEX.bucket_shift == number == part.zmax >> INDEX.bucket_shift
