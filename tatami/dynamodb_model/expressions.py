"""DynamoDB's expression language, parsed: key conditions, filters, conditions and update expressions.

The grammar is DynamoDB's (developer guide, "Condition and filter expressions, operators and
functions"): comparisons ``= <> < <= > >=``, ``BETWEEN``, ``IN``, ``attribute_exists``,
``attribute_not_exists``, ``NOT``, ``AND``, ``OR`` and parentheses, in that order of precedence; update
expressions with ``SET path = value``, ``REMOVE path`` and ``ADD path value`` clauses. Placeholders
(``#name``, ``:value``) are replaced while parsing, so a node holds attribute names and Python values.
Anything else (document paths, ``begins_with``, ``size``, arithmetic in SET, ``DELETE``) raises
:class:`Unsupported` naming it: the model refuses what it does not model rather than answer wrongly.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "And",
    "Between",
    "Compare",
    "Exists",
    "In",
    "Node",
    "Not",
    "Or",
    "Unsupported",
    "Update",
    "parse_condition",
    "parse_update",
]

_TOKEN = re.compile(r"\s*(?:(#\w+)|(:\w+)|(<>|<=|>=|=|<|>)|([(),+-])|([A-Za-z_][\w.\[\]]*))")
_FLIPPED = {"=": "=", "<>": "<>", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


class Unsupported(ValueError):
    """An expression the model does not evaluate (it says which part)."""


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


@dataclass(frozen=True, slots=True)
class Update:
    """An update expression's actions: values to SET, names to REMOVE, numbers to ADD."""

    set: tuple[tuple[str, Any], ...] = ()
    remove: tuple[str, ...] = ()
    add: tuple[tuple[str, Any], ...] = ()


class _Tokens:
    """The tokens of one expression, placeholders resolved as they are read."""

    def __init__(self, text: str, names: Mapping[str, str], values: Mapping[str, Any]) -> None:
        self.text, self.names, self.values = text, names, values
        self.items: list[tuple[str, str]] = []
        at, end = 0, len(text.rstrip())
        kinds = ("name", "value", "op", "punct", "word")
        while at < end:
            match = _TOKEN.match(text, at)
            if match is None or match.end() == at:
                raise Unsupported(f"cannot read {text[at:]!r} in {text!r}")
            kind = next(k for k, group in zip(kinds, match.groups(), strict=True) if group is not None)
            self.items.append((kind, match.group(match.lastindex or 0)))
            at = match.end()
        self.at = 0

    def peek(self, offset: int = 0) -> tuple[str, str]:
        index = self.at + offset
        return self.items[index] if index < len(self.items) else ("end", "")

    def take(self) -> tuple[str, str]:
        token = self.peek()
        self.at += 1
        return token

    def keyword(self, word: str) -> bool:
        kind, text = self.peek()
        if kind == "word" and text.upper() == word:
            self.at += 1
            return True
        return False

    def expect(self, text: str) -> None:
        if self.take()[1] != text:
            raise Unsupported(f"expected {text!r} in {self.text!r}")

    def path(self) -> str:
        kind, text = self.take()
        if kind == "name":
            if text not in self.names:
                raise Unsupported(f"{text} is not in ExpressionAttributeNames")
            return self.names[text]
        if kind == "word" and not re.search(r"[.\[]", text):
            return text
        raise Unsupported(f"{text!r} in {self.text!r}: only top-level attribute names are modelled")

    def operand(self) -> tuple[str, Any]:
        """("value", a Python value) or ("path", an attribute name)."""
        kind, text = self.peek()
        if kind == "value":
            self.at += 1
            if text not in self.values:
                raise Unsupported(f"{text} is not in ExpressionAttributeValues")
            return "value", self.values[text]
        return "path", self.path()


def parse_condition(text: str, names: Mapping[str, str], values: Mapping[str, Any]) -> Node:
    """A key condition, filter or condition expression as a tree (``values`` already Python values).

    >>> parse_condition("a BETWEEN :lo AND :hi AND NOT attribute_exists(b)", {}, {":lo": 1, ":hi": 9})
    And(parts=(Between(name='a', low=1, high=9), Not(part=Exists(name='b', present=True))))
    """
    tokens = _Tokens(text, names, values)
    node = _disjunction(tokens)
    if tokens.peek()[0] != "end":
        raise Unsupported(f"unexpected {tokens.peek()[1]!r} in {text!r}")
    return node


def _disjunction(tokens: _Tokens) -> Node:
    parts = [_conjunction(tokens)]
    while tokens.keyword("OR"):
        parts.append(_conjunction(tokens))
    return parts[0] if len(parts) == 1 else Or(tuple(parts))


def _conjunction(tokens: _Tokens) -> Node:
    parts = [_negation(tokens)]
    while tokens.keyword("AND"):
        parts.append(_negation(tokens))
    return parts[0] if len(parts) == 1 else And(tuple(parts))


def _negation(tokens: _Tokens) -> Node:
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


def _function(tokens: _Tokens) -> Node:
    name = tokens.take()[1]
    if name not in ("attribute_exists", "attribute_not_exists"):
        raise Unsupported(f"function {name} is not modelled")
    tokens.expect("(")
    path = tokens.path()
    tokens.expect(")")
    return Exists(path, name == "attribute_exists")


def _comparison(tokens: _Tokens) -> Node:
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


def _name(operand: tuple[str, Any], tokens: _Tokens) -> str:
    if operand[0] != "path":
        raise Unsupported(f"a comparison of two values in {tokens.text!r} is not modelled")
    return str(operand[1])


def _value(operand: tuple[str, Any], tokens: _Tokens) -> Any:
    if operand[0] != "value":
        raise Unsupported(f"comparing two attributes ({operand[1]}) in {tokens.text!r} is not modelled")
    return operand[1]


def parse_update(text: str, names: Mapping[str, str], values: Mapping[str, Any]) -> Update:
    """An update expression's SET, REMOVE and ADD actions.

    >>> names, values = {"#a": "a", "#n": "n"}, {":a": 1, ":b": 2, ":one": 1}
    >>> parse_update("SET #a = :a, b = :b ADD #n :one REMOVE c", names, values)
    Update(set=(('a', 1), ('b', 2)), remove=('c',), add=(('n', 1),))
    """
    tokens = _Tokens(text, names, values)
    found: dict[str, list[Any]] = {"SET": [], "REMOVE": [], "ADD": []}
    while tokens.peek()[0] != "end":
        clause = tokens.take()[1].upper()
        if clause not in found:
            raise Unsupported(f"update clause {clause!r} in {text!r} is not modelled")
        while True:
            found[clause].append(_action(clause, tokens))
            if tokens.peek()[1] != ",":
                break
            tokens.take()
    return Update(tuple(found["SET"]), tuple(found["REMOVE"]), tuple(found["ADD"]))


def _action(clause: str, tokens: _Tokens) -> Any:
    path = tokens.path()
    if clause == "REMOVE":
        return path
    if clause == "SET":
        tokens.expect("=")
    value = _value(tokens.operand(), tokens)
    if tokens.peek()[1] in ("+", "-"):
        raise Unsupported(f"arithmetic in {tokens.text!r} is not modelled")
    return path, value
