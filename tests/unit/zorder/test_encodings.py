"""zorder.encodings: order preserved (ties exactly where each type defines them), extremes, bad input."""

from __future__ import annotations

import math
import struct
import unicodedata
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zorder.encodings import (
    Bool,
    Encoding,
    Fixed,
    Float,
    Int,
    Text,
    Timestamp,
    UInt,
    encoding_from_dict,
    encoding_from_spec,
    encoding_to_dict,
)

PROPERTY = settings(max_examples=200, deadline=None)


def unsigned(w: int) -> st.SearchStrategy[int]:
    return st.integers(0, 2**w - 1)


def same_order(a: Any, b: Any, ka: int, kb: int) -> bool:
    return (a < b) == (ka < kb) and (a == b) == (ka == kb)


@PROPERTY
@given(st.integers(1, 80).flatmap(lambda w: st.tuples(st.just(w), unsigned(w), unsigned(w))))
def test_uint_order(case: tuple[int, int, int]) -> None:
    bits, a, b = case
    assert same_order(a, b, UInt(bits).encode(a), UInt(bits).encode(b))
    assert UInt(bits).decode(UInt(bits).encode(a)) == a


def signed(w: int) -> st.SearchStrategy[int]:
    return st.integers(-(2 ** (w - 1)), 2 ** (w - 1) - 1)


@PROPERTY
@given(st.integers(1, 80).flatmap(lambda w: st.tuples(st.just(w), signed(w), signed(w))))
def test_int_order(case: tuple[int, int, int]) -> None:
    bits, a, b = case
    ka, kb = Int(bits).encode(a), Int(bits).encode(b)
    assert same_order(a, b, ka, kb)
    assert 0 <= ka < 2**bits and Int(bits).decode(ka) == a
    assert ka == (a & (2**bits - 1)) ^ (1 << (bits - 1))  # two's complement, sign bit flipped


def test_bool_order() -> None:
    assert (Bool().encode(False), Bool().encode(True)) == (0, 1)
    assert Bool().decode(1) is True


@PROPERTY
@given(st.floats(allow_nan=False), st.floats(allow_nan=False))
def test_float64_order_ties_only_for_equal_values(a: float, b: float) -> None:
    # -0.0 == 0.0 in Python too, so "ties exactly where the type defines them" is plain equality.
    assert same_order(a, b, Float(64).encode(a), Float(64).encode(b))


@PROPERTY
@given(st.floats(allow_nan=False, width=32), st.floats(allow_nan=False, width=32))
def test_float32_order_on_binary32_values(a: float, b: float) -> None:
    assert same_order(a, b, Float(32).encode(a), Float(32).encode(b))


def to32(x: float) -> float:
    return float(struct.unpack(">f", struct.pack(">f", x))[0])


@PROPERTY
@given(st.floats(-3e38, 3e38), st.floats(-3e38, 3e38))
def test_float32_ties_exactly_when_rounding_to_binary32_ties(a: float, b: float) -> None:
    assert same_order(to32(a), to32(b), Float(32).encode(a), Float(32).encode(b))


@pytest.mark.parametrize("bits", [32, 64])
@pytest.mark.parametrize("value", [math.inf, -math.inf, 0.0, -0.0, 5e-324, -5e-324, 1e-45, 3.4e38, -1.5])
def test_float_round_trips(bits: int, value: float) -> None:
    expected = to32(value) if bits == 32 else value
    decoded = Float(bits).decode(Float(bits).encode(value))
    assert decoded == expected and not math.isnan(decoded)


def test_float_extremes_sort_at_the_ends() -> None:
    keys = [Float().encode(v) for v in (-math.inf, -1.7976931348623157e308, -5e-324, 0.0, 5e-324, math.inf)]
    assert keys == sorted(keys) and Float().encode(-0.0) == Float().encode(0.0)


FIXED = Fixed(-90, 90, 16)
STEP = 180 / 65535


@PROPERTY
@given(st.floats(-90, 90), st.floats(-90, 90))
def test_fixed_order(a: float, b: float) -> None:
    ka, kb = FIXED.encode(a), FIXED.encode(b)
    if a <= b:
        assert ka <= kb
    if b - a > STEP * 1.000001:  # more than one step apart: never the same key
        assert ka < kb
    assert abs(FIXED.decode(ka) - a) <= STEP / 2 * 1.000001  # nearest step


def test_fixed_extremes() -> None:
    assert (FIXED.encode(-90), FIXED.encode(90.0), FIXED.encode(Decimal("0"))) == (0, 65535, 32768)
    assert Fixed(0, 1, 53).encode(1.0) == 2**53 - 1


nfc_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=8).map(
    lambda s: unicodedata.normalize("NFC", s)
)


@PROPERTY
@given(nfc_text, nfc_text, st.integers(1, 6))
def test_text_order_ties_on_the_stored_prefix(a: str, b: str, nbytes: int) -> None:
    def stored(s: str) -> bytes:
        return s.encode("utf-8")[:nbytes].ljust(nbytes, b"\0")

    ka, kb = Text(nbytes).encode(a), Text(nbytes).encode(b)
    if a <= b:  # str order is code point order is UTF-8 byte order
        assert ka <= kb
    assert (ka == kb) == (stored(a) == stored(b))


def test_text_nfc_and_truncation() -> None:
    assert Text(8).encode("caf\u00e9") == Text(8).encode("cafe\u0301")  # precomposed == combining
    assert Text(5).decode(Text(5).encode("ab\U0001f600")) == "ab"  # a cut 4-byte character is dropped
    assert Text(3).bits == 24


offsets = st.sampled_from([UTC, timezone(timedelta(hours=9)), timezone(timedelta(hours=-5, minutes=-30))])


@PROPERTY
@given(st.datetimes(timezones=offsets), st.datetimes(timezones=offsets))
def test_timestamp_order_ties_within_a_millisecond(a: datetime, b: datetime) -> None:
    ka, kb = Timestamp().encode(a), Timestamp().encode(b)
    ms_a, ms_b = ((t - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(milliseconds=1) for t in (a, b))
    assert same_order(ms_a, ms_b, ka, kb)


def test_timestamp_forms_agree() -> None:
    moment = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
    ms = 1_714_564_800_000
    keys = {
        Timestamp().encode(v)
        for v in (moment, "2024-05-01T12:00:00Z", "2024-05-01T21:00:00+09:00", ms, Decimal(ms))
    }
    assert len(keys) == 1
    assert Timestamp().decode(keys.pop()) == moment


def test_timestamp_extremes() -> None:
    for moment in (datetime.min.replace(tzinfo=UTC), datetime.max.replace(tzinfo=UTC)):
        decoded = Timestamp().decode(Timestamp().encode(moment))
        assert abs(decoded - moment) < timedelta(milliseconds=1)
    assert Timestamp(42).encode("1901-01-01T00:00:00Z") > 0  # signed: before 1970 fits
    with pytest.raises(ValueError, match="outside datetime"):
        Timestamp().decode(0)


@pytest.mark.parametrize(
    ("encoding", "value", "error", "message"),
    [
        (UInt(8), 256, ValueError, "0..255"),
        (UInt(8), -1, ValueError, "0..255"),
        (UInt(8), True, TypeError, "bool"),
        (UInt(8), 1.0, TypeError, "float"),
        (UInt(8), "1", TypeError, "str"),
        (UInt(8), Decimal("1.5"), ValueError, "integral"),
        (UInt(8), Decimal("NaN"), ValueError, "integral"),
        (Int(8), 128, ValueError, "-128..127"),
        (Int(8), -129, ValueError, "-128..127"),
        (Float(), math.nan, ValueError, "NaN"),
        (Float(), Decimal("NaN"), ValueError, "NaN"),
        (Float(), False, TypeError, "bool"),
        (Float(32), 1e39, ValueError, "cannot hold"),
        (Float(), 10**400, ValueError, "beyond"),
        (Fixed(-90, 90, 16), 90.0001, ValueError, "-90..90"),
        (Fixed(-90, 90, 16), "1", TypeError, "number"),
        (Text(4), 5, TypeError, "str"),
        (Text(4), "\ud800", ValueError, "surrogate"),
        (Bool(), 1, TypeError, "True or False"),
        (Timestamp(), datetime(2024, 1, 1), ValueError, "naive"),
        (Timestamp(), "2024-01-01T00:00:00", ValueError, "naive"),
        (Timestamp(), "yesterday", ValueError, "ISO-8601"),
        (Timestamp(), 1.5, TypeError, "epoch milliseconds"),
        (Timestamp(8), 1000, ValueError, "-128..127"),
    ],
)
def test_bad_values(encoding: Encoding, value: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        encoding.encode(value)


def test_integral_decimals_are_accepted() -> None:
    assert UInt(16).encode(Decimal("42")) == 42 and UInt(16).encode(Decimal("4.2E+1")) == 42
    assert Int(8).encode(Decimal("-1")) == 127
    assert Float().encode(Decimal("1.5")) == Float().encode(1.5)


@pytest.mark.parametrize(
    ("factory", "message"),
    [
        (lambda: UInt(0), "bits"),
        (lambda: UInt(True), "bits"),
        (lambda: Int(8193), "bits"),
        (lambda: Float(16), "64"),
        (lambda: Fixed(10, 10, 8), "below"),
        (lambda: Fixed(0, math.inf, 8), "finite"),
        (lambda: Fixed(0, 1, 54), "bits"),
        (lambda: Text(0), "bits"),
        (lambda: Timestamp(1), "bits"),
    ],
)
def test_bad_parameters(factory: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        factory()


EVERY_TYPE = [UInt(16), Int(8), Float(), Float(32), Fixed(-180, 180, 20), Text(6), Timestamp(48), Bool()]


@pytest.mark.parametrize("encoding", EVERY_TYPE, ids=repr)
def test_dict_round_trip(encoding: Encoding) -> None:
    data = encoding_to_dict(encoding)
    assert data["type"] == encoding.kind
    assert encoding_from_dict(data) == encoding


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("uint:16", UInt(16)),
        ("int:8", Int(8)),
        ("float", Float()),
        ("float:32", Float(32)),
        ("fixed:-180:180.0:20", Fixed(-180, 180, 20)),
        ("text:6", Text(6)),
        ("timestamp:48", Timestamp(48)),
        ("Bool", Bool()),
    ],
)
def test_spec(spec: str, expected: Encoding) -> None:
    assert encoding_from_spec(spec) == expected


@pytest.mark.parametrize("spec", ["blob:3", "uint", "uint:x", "fixed:1:2", "uint:8:9"])
def test_bad_spec(spec: str) -> None:
    with pytest.raises(ValueError, match=r"spec|unknown"):
        encoding_from_spec(spec)


@pytest.mark.parametrize("data", [{"type": "blob"}, {"bits": 3}, {"type": "uint", "width": 3}])
def test_bad_dicts(data: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        encoding_from_dict(data)


@pytest.mark.parametrize(
    ("encoding", "text", "value"),
    [
        (UInt(8), "7", 7),
        (Int(8), "-7", -7),
        (Float(), "-inf", -math.inf),
        (Fixed(0, 1, 8), "0.5", 0.5),
        (Text(4), "cart", "cart"),
        (Timestamp(), "-5", -5),
        (Timestamp(), "2024-05-01T00:00Z", "2024-05-01T00:00Z"),
        (Bool(), "No", False),
    ],
)
def test_parse(encoding: Encoding, text: str, value: Any) -> None:
    assert encoding.parse(text) == value
    encoding.encode(encoding.parse(text))


def test_parse_bool_rejects_other_words() -> None:
    with pytest.raises(ValueError, match="true/false"):
        Bool().parse("maybe")
