"""DynamoDB's expression language as the model parses and evaluates it: precedence, placeholders,
what it refuses, and one answer whether an expression is evaluated over columns or over one item."""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

import numpy as np
import pytest

from tatami.dynamodb_model.conditions import holds, row_mask
from tatami.dynamodb_model.expressions import And, Compare, Not, Or, parse_condition
from tatami.dynamodb_model.loading import columns_of
from tatami.dynamodb_model.tokens import Unsupported
from tatami.dynamodb_model.updates import Update, parse_update


def test_not_binds_before_and_before_or() -> None:
    node = parse_condition("a = :x OR b = :y AND NOT c = :z", {}, {":x": 1, ":y": 2, ":z": 3})
    assert node == Or((Compare("a", "=", 1), And((Compare("b", "=", 2), Not(Compare("c", "=", 3))))))


def test_placeholders_are_replaced_and_a_value_first_comparison_turned_around() -> None:
    node = parse_condition(":v < #n", {"#n": "population"}, {":v": Decimal(5)})
    assert node == Compare("population", ">", Decimal(5))


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("begins_with(a, :v)", "begins_with"),
        ("a.b = :v", "a.b"),
        ("a = b", "comparing two attributes"),
        ("#missing = :v", "#missing"),
        ("a = :missing", ":missing"),
    ],
)
def test_what_the_model_does_not_evaluate_is_refused_by_name(text: str, named: str) -> None:
    with pytest.raises(Unsupported, match=named):
        parse_condition(text, {}, {":v": 1})


def test_update_expressions_set_remove_and_add() -> None:
    update = parse_update("SET #a = :a REMOVE b, c ADD n :one", {"#a": "a"}, {":a": "x", ":one": 1})
    assert update == Update(set=(("a", "x"),), remove=("b", "c"), add=(("n", 1),))
    for refused in ("DELETE s :v", "SET a = a + :v"):
        with pytest.raises(Unsupported):
            parse_update(refused, {}, {":v": 1})


def _random_item(rng: random.Random, n: int) -> dict[str, Any]:
    item: dict[str, Any] = {"id": f"i{n}"}
    if rng.random() < 0.8:
        item["n"] = Decimal(rng.randint(-50, 50)) / rng.choice([1, 10, 100])
    if rng.random() < 0.8:
        item["s"] = rng.choice(["", "a", "ab", "b", "ba", "é", "z"])
    if rng.random() < 0.8:
        item["b"] = bytes([rng.randrange(4)])
    return item


EXPRESSIONS = [
    "n BETWEEN :lo AND :hi",
    "(n >= :hi OR n <= :lo) AND attribute_exists(s)",
    "NOT n < :lo",
    "n <> :lo",
    "s >= :s AND s < :t",
    "s = :s OR b = :b",
    "b > :b AND attribute_not_exists(n)",
    "n IN (:lo, :hi, :s)",
    "n = :s",  # a number compared with a string: never true
]


def test_columns_and_single_items_give_the_same_answers() -> None:
    rng = random.Random(7)
    items = [_random_item(rng, n) for n in range(400)]
    columns, rest = columns_of(items)
    assert not rest
    rows = np.arange(len(items))
    for text in EXPRESSIONS:
        for _ in range(20):
            values = {
                ":lo": Decimal(rng.randint(-60, 20)) / 10,
                ":hi": Decimal(rng.randint(-20, 60)) / 10,
                ":s": rng.choice(["", "a", "b", "c", "é"]),
                ":t": rng.choice(["b", "z", "zz"]),
                ":b": bytes([rng.randrange(4)]),
            }
            node = parse_condition(text, {}, values)
            assert row_mask(node, columns, rows).tolist() == [holds(node, i) for i in items], text
