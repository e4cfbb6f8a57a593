"""Columns: sizes by DynamoDB's rules for many rows at once, and order keys that sort and compare as
DynamoDB does (numbers numerically, strings and binaries by bytes), for stored values and constants."""

from __future__ import annotations

import random
from decimal import Decimal

import numpy as np

from tatami.dynamodb_model.columns import Binaries
from tatami.dynamodb_model.numbers import Numbers, number_sizes
from tatami.dynamodb_model.texts import Formatted, Texts
from zindex.sizes import number_size


def test_number_sizes_are_the_engines_for_every_scale() -> None:
    rng = random.Random(3)
    for scale in (0, 1, 4, 5):
        units = np.array(
            [rng.choice([0, 1, -1, 10 ** rng.randint(0, 12)]) * rng.randint(-999, 999) for _ in range(500)]
        )
        expected = [number_size(Decimal(int(u)).scaleb(-scale)) for u in units]
        assert number_sizes(units, scale).tolist() == expected


def _check_bounds(column: object, stored: list[object], constants: list[object]) -> None:
    rows = np.arange(len(stored))
    for constant in constants:
        low, high = column.lower(constant), column.upper(constant)  # type: ignore[attr-defined]
        at_least = column.between(rows, low, None).tolist()  # type: ignore[attr-defined]
        at_most = column.between(rows, None, high).tolist()  # type: ignore[attr-defined]
        assert at_least == [v >= constant for v in stored], constant
        assert at_most == [v <= constant for v in stored], constant
        keys = column.keys(rows).tolist()  # type: ignore[attr-defined]
        key = column.order_key(constant)  # type: ignore[attr-defined]
        assert [k < key for k in keys] == [v < constant for v in stored]
        assert [k == key for k in keys] == [v == constant for v in stored]


def test_order_keys_of_every_kind_compare_as_the_values_do() -> None:
    texts = ["", "a", "ab", "b", "é", "z", "a"]
    _check_bounds(Texts(np.arange(len(texts)), texts), texts, ["", "a", "aa", "ab", "c", "é", "zz"])
    numbers = [Decimal(n) / 100 for n in (-250, -1, 0, 1, 5, 250, 250)]
    column = Numbers(np.array([int(n * 100) for n in numbers]), scale=2)
    _check_bounds(
        column, numbers, [Decimal("-2.5"), Decimal("-0.005"), 0, Decimal("0.011"), 3, Decimal("2.5")]
    )
    binaries = [bytes([a, b]) for a, b in ((0, 0), (0, 1), (1, 0), (1, 255), (255, 255))]
    column = Binaries(np.array([int.from_bytes(b) for b in binaries], dtype=np.uint64), 2)
    _check_bounds(column, binaries, [b"", b"\x00", b"\x01", b"\x01\x00", b"\x01\x00\x00", b"\xff\xff\x00"])
    ids = Formatted(120, "p", 3)
    _check_bounds(ids, [ids.text(r) for r in range(120)], ["", "p", "p05", "p050", "p0501", "p119", "q"])


def test_numbers_come_back_as_dynamodb_returns_them() -> None:
    column = Numbers(np.array([356800, 1000000, -5]), scale=4)
    assert column.values(np.arange(3)) == [Decimal("35.68"), Decimal("100"), Decimal("-0.0005")]
    assert [str(v) for v in column.values(np.arange(3))] == ["35.68", "100", "-0.0005"]
