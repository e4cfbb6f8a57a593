"""DynamoDB's expression language, parsed: key conditions, filters, conditions and update expressions.

The grammar is DynamoDB's (developer guide, "Condition and filter expressions, operators and
functions"): comparisons ``= <> < <= > >=``, ``BETWEEN``, ``IN``, ``attribute_exists``,
``attribute_not_exists``, ``NOT``, ``AND``, ``OR`` and parentheses, in that order of precedence; update
expressions are :mod:`tatami.dynamodb_model.updates`'. Placeholders (``#name``, ``:value``) are replaced
while parsing (:mod:`tatami.dynamodb_model.tokens`), so a node holds attribute names and Python values.
Anything else (document paths, ``begins_with``, ``size``) raises :class:`Unsupported` naming it: the
model refuses what it does not model rather than answer wrongly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tatami.dynamodb_model.tokens import Tokens, Unsupported

__all__ = [
    "And",
    "Between",
    "Compare",
    "Exists",
    "In",
    "Node",
    "Not",
    "Or",
    "parse_condition",
]

_FLIPPED = {"=": "=", "<>": "<>", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


@dataclass(frozen=True, slots=True)
class Compare:
    """``name op value`` (a comparison written value-first is turned around)."""

    name: str
    op: str
    value: Any


@dataclass(frozen=True, slots=True)
class Between:
    name: str
    low: Any
    high: Any


@dataclass(frozen=True, slots=True)
class In:
    name: str
    values: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Exists:
    """``attribute_exists(name)``, or ``attribute_not_exists(name)`` when ``present`` is False."""

    name: str
    present: bool


@dataclass(frozen=True, slots=True)
class And:
    parts: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Or:
    parts: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Not:
    part: Node


Node = Compare | Between | In | Exists | And | Or | Not


def parse_condition(text: str, names: Mapping[str, str], values: Mapping[str, Any]) -> Node:
    """A key condition, filter or condition expression as a tree (``values`` already Python values).

    >>> parse_condition("a BETWEEN :lo AND :hi AND NOT attribute_exists(b)", {}, {":lo": 1, ":hi": 9})
    And(parts=(Between(name='a', low=1, high=9), Not(part=Exists(name='b', present=True))))
    """
    tokens = Tokens(text, names, values)
    node = _disjunction(tokens)
    if tokens.peek()[0] != "end":
        raise Unsupported(f"unexpected {tokens.peek()[1]!r} in {text!r}")
    return node


def _disjunction(tokens: Tokens) -> Node:
    parts = [_conjunction(tokens)]
    while tokens.keyword("OR"):
        parts.append(_conjunction(tokens))
    return parts[0] if len(parts) == 1 else Or(tuple(parts))


def _conjunction(tokens: Tokens) -> Node:
    parts = [_negation(tokens)]
    while tokens.keyword("AND"):
        parts.append(_negation(tokens))
    return parts[0] if len(parts) == 1 else And(tuple(parts))


def _negation(tokens: Tokens) -> Node:
    if tokens.keyword("NOT"):
        return Not(_negation(tokens))
    if tokens.peek()[1] == "(":
        tokens.take()
        node = _disjunction(tokens)
        tokens.expect(")")
        return node
    if tokens.peek()[0] == "word" and tokens.peek(1)[1] == "(":
        return _function(tokens)
    return _comparison(tokens)


def _function(tokens: Tokens) -> Node:
    name = tokens.take()[1]
    if name not in ("attribute_exists", "attribute_not_exists"):
        raise Unsupported(f"function {name} is not modelled")
    tokens.expect("(")
    path = tokens.path()
    tokens.expect(")")
    return Exists(path, name == "attribute_exists")


def _comparison(tokens: Tokens) -> Node:
    left = tokens.operand()
    if tokens.keyword("BETWEEN"):
        low = tokens.operand()
        if not tokens.keyword("AND"):
            raise Unsupported(f"BETWEEN without AND in {tokens.text!r}")
        high = tokens.operand()
        return Between(_name(left, tokens), _value(low, tokens), _value(high, tokens))
    if tokens.keyword("IN"):
        tokens.expect("(")
        options = [_value(tokens.operand(), tokens)]
        while tokens.peek()[1] == ",":
            tokens.take()
            options.append(_value(tokens.operand(), tokens))
        tokens.expect(")")
        return In(_name(left, tokens), tuple(options))
    kind, op = tokens.take()
    if kind != "op":
        raise Unsupported(f"expected a comparison after {left[1]!r} in {tokens.text!r}")
    right = tokens.operand()
    if left[0] == "value" and right[0] == "path":
        return Compare(right[1], _FLIPPED[op], left[1])
    return Compare(_name(left, tokens), op, _value(right, tokens))


def _name(operand: tuple[str, Any], tokens: Tokens) -> str:
    if operand[0] != "path":
        raise Unsupported(f"a comparison of two values in {tokens.text!r} is not modelled")
    return str(operand[1])


def _value(operand: tuple[str, Any], tokens: Tokens) -> Any:
    if operand[0] != "value":
        raise Unsupported(f"comparing two attributes ({operand[1]}) in {tokens.text!r} is not modelled")
    return operand[1]
