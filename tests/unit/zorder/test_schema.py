"""zorder.schema: addresses as bytes in Z order, named errors, boxes from values, JSON."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zorder import Bool, Dimension, Fixed, Float, Int, Schema, Text, Timestamp, UInt
from zorder.bits import interleave

PLACES = Schema.of(latitude=Fixed(-90, 90, 16), longitude=Fixed(-180, 180, 16), population=UInt(32))
TOKYO = {"latitude": 35.6895, "longitude": 139.6917, "population": 13_960_000, "name": "Tokyo"}
MIXED = Schema.of(n=UInt(5), i=Int(12), f=Float(32), x=Fixed(0, 1, 7), t=Text(2), ts=Timestamp(44), b=Bool())


def test_encode_is_the_interleave_of_the_keys_big_endian() -> None:
    address = PLACES.encode(TOKYO)
    assert len(address) == PLACES.nbytes == 8
    assert int.from_bytes(address) == interleave(PLACES.keys(TOKYO), (16, 16, 32))


def test_odd_total_bits_pad_at_the_top() -> None:
    schema = Schema.of(a=UInt(3), b=UInt(2))
    assert schema.nbytes == 1 and schema.encode({"a": 7, "b": 3}) == bytes([0b11111])


@settings(max_examples=200, deadline=None)
@given(st.tuples(st.integers(0, 31), st.integers(0, 31)), st.tuples(st.integers(0, 31), st.integers(0, 31)))
def test_bytes_order_is_z_order(p: tuple[int, int], q: tuple[int, int]) -> None:
    schema = Schema.of(a=UInt(5), b=UInt(5))
    za, zb = (schema.encode({"a": v[0], "b": v[1]}) for v in (p, q))
    assert (za < zb) == (interleave(p, (5, 5)) < interleave(q, (5, 5)))


def test_decode_round_trips_the_exact_types() -> None:
    record = {
        "n": 31,
        "i": -2048,
        "f": -1.5,
        "x": 1.0,
        "t": "ok",
        "ts": datetime(2024, 1, 1, tzinfo=UTC),
        "b": True,
    }
    assert MIXED.decode(MIXED.encode(record)) == record


def test_decimals_from_dynamodb_are_accepted() -> None:
    item = {
        "latitude": Decimal("35.6895"),
        "longitude": Decimal("139.6917"),
        "population": Decimal(13_960_000),
    }
    assert PLACES.encode(item) == PLACES.encode(TOKYO)


@pytest.mark.parametrize(
    ("change", "error", "message"),
    [
        ({"population": None}, TypeError, "dimension 'population': UInt.*NoneType"),
        ({"population": True}, TypeError, "'population'.*bool"),
        ({"population": 2**32}, ValueError, "'population'.*0..4294967295"),
        ({"population": -1}, ValueError, "'population'"),
        ({"latitude": 91.0}, ValueError, "'latitude'.*-90..90"),
        ({"latitude": "north"}, TypeError, "'latitude'.*str"),
        ({"population": Decimal("1.5")}, ValueError, "'population'.*integral"),
    ],
)
def test_bad_values_name_the_dimension(change: dict[str, Any], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        PLACES.encode({**TOKYO, **change})


def test_missing_dimension_is_named() -> None:
    with pytest.raises(ValueError, match="missing dimension 'longitude'"):
        PLACES.encode({"latitude": 1.0, "population": 5})
    with pytest.raises(TypeError, match="mapping"):
        PLACES.encode([1, 2, 3])  # type: ignore[arg-type]


def test_naive_datetime_is_rejected() -> None:
    with pytest.raises(ValueError, match=r"dimension 'when'.*naive"):
        Schema.of(when=Timestamp()).encode({"when": datetime(2024, 1, 1)})


def test_wide_schemas_take_the_general_path() -> None:
    schema = Schema.of(title=Text(30), year=UInt(16))  # 256 bits: relative tables
    assert not schema.layout.absolute
    record = {"title": "The Tale of Genji", "year": 1008}
    assert int.from_bytes(schema.encode(record)) == interleave(schema.keys(record), (240, 16))
    assert schema.decode(schema.encode(record)) == record
    with pytest.raises(ValueError, match="missing dimension 'year'"):
        schema.encode({"title": "x"})


def test_box_from_values() -> None:
    box = PLACES.box({"latitude": 35, "longitude": 139}, {"latitude": 36, "longitude": 140})
    assert box.contains(TOKYO) and box.contains(PLACES.encode(TOKYO))
    assert box.lower[2] == 0 and box.upper[2] == 2**32 - 1  # population unbounded
    assert not box.contains({**TOKYO, "latitude": 34.9})


def test_box_one_sided_and_clamped_bounds() -> None:
    box = PLACES.box({"population": 1_000_000})
    assert (box.lower[2], box.upper[2]) == (1_000_000, 2**32 - 1)
    clamped = PLACES.box({"latitude": -100, "population": -5}, {"longitude": 1e9})
    assert clamped.lower[0] == 0 and clamped.lower[2] == 0 and clamped.upper[1] == 2**16 - 1


@pytest.mark.parametrize(
    ("lower", "upper", "message"),
    [
        ({"population": 7}, {"population": 3}, "lower 7 > upper 3 for 'population'"),
        ({"latitude": 95}, {}, "'latitude'.*lower bound 95 leaves nothing"),
        ({}, {"population": -1}, "'population'.*upper bound -1 leaves nothing"),
        ({"altitude": 3}, {}, r"unknown dimension\(s\) \['altitude'\]"),
        ({"latitude": float("nan")}, {}, "NaN"),
    ],
)
def test_bad_boxes(lower: dict[str, Any], upper: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        PLACES.box(lower, upper)


def test_next_in_box_and_ranges_work_on_bytes() -> None:
    box = PLACES.box({"latitude": 35, "longitude": 139}, {"latitude": 36, "longitude": 140})
    spans = PLACES.ranges(box, 8)
    assert 1 <= len(spans) <= 8 and all(len(lo) == len(hi) == 8 for lo, hi in spans)
    assert any(lo <= PLACES.encode(TOKYO) <= hi for lo, hi in spans)
    first = PLACES.next_in_box(bytes(8), box)
    assert first == spans[0][0] and first is not None and box.contains(first)
    assert PLACES.next_in_box(b"\xff" * 8, box) is None


def test_foreign_boxes_and_bad_addresses_are_rejected() -> None:
    other = Schema.of(a=UInt(64)).box()
    with pytest.raises(ValueError, match="another schema"):
        PLACES.ranges(other, 4)
    with pytest.raises(ValueError, match="another schema"):
        PLACES.next_in_box(bytes(8), other)
    with pytest.raises(ValueError, match="8 bytes"):
        PLACES.next_in_box(bytes(7), PLACES.box())
    with pytest.raises(ValueError, match="8 bytes"):
        PLACES.decode("00" * 8)  # type: ignore[arg-type]


def test_json_round_trip_is_stable() -> None:
    text = MIXED.to_json()
    assert Schema.from_json(text) == MIXED and Schema.from_json(text).to_json() == text
    assert Schema.from_json(text.encode()) == MIXED
    data = json.loads(text)
    assert [d["name"] for d in data["dimensions"]] == list(MIXED.names)
    assert data["dimensions"][3] == {"name": "x", "type": "fixed", "lo": 0, "hi": 1, "bits": 7}


@pytest.mark.parametrize(
    "text",
    [
        "[]",
        '{"dimensions": []}',
        '{"format": "zorder.schema/1", "dimensions": [{"name": "a", "type": "blob"}]}',
    ],
)
def test_bad_json(text: str) -> None:
    with pytest.raises(ValueError):
        Schema.from_json(text)


def test_from_spec_matches_of() -> None:
    spec = "latitude:fixed:-90:90:16, longitude:fixed:-180:180:16, population:uint:32"
    assert Schema.from_spec(spec) == PLACES
    with pytest.raises(ValueError, match="name:type"):
        Schema.from_spec("latitude")
    with pytest.raises(ValueError, match="unknown encoding"):
        Schema.from_spec("a:blob:3")


@pytest.mark.parametrize(
    ("dims", "message"),
    [
        ((), "at least one"),
        ((Dimension("a", UInt(4)), Dimension("a", UInt(4))), "unique"),
        (tuple(Dimension(f"d{i}", UInt(8000)) for i in range(2)), "at most 8192"),
    ],
)
def test_bad_schemas(dims: tuple[Dimension, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Schema(dims)


def test_dimensions_validate_themselves() -> None:
    with pytest.raises(ValueError, match="non-empty"):
        Dimension("", UInt(4))
    with pytest.raises(TypeError, match="not an encoding"):
        Dimension("a", "uint")  # type: ignore[arg-type]
    assert Schema((("a", UInt(4)),)) == Schema.of(a=UInt(4))  # type: ignore[arg-type]
    assert Schema.of(a=UInt(4), b=Int(3)).bits == 7
    assert PLACES.names == ("latitude", "longitude", "population")
