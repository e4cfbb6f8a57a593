"""Update expressions: ``SET path = value``, ``REMOVE path`` and ``ADD path value`` clauses (anything else,
``DELETE`` or arithmetic in SET, raises :class:`Unsupported` naming it)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tatami.dynamodb_model.tokens import Tokens, Unsupported

__all__ = ["Update", "parse_update"]


@dataclass(frozen=True, slots=True)
class Update:
    """An update expression's actions: values to SET, names to REMOVE, numbers to ADD."""

    set: tuple[tuple[str, Any], ...] = ()
    remove: tuple[str, ...] = ()
    add: tuple[tuple[str, Any], ...] = ()


def parse_update(text: str, names: Mapping[str, str], values: Mapping[str, Any]) -> Update:
    """An update expression's SET, REMOVE and ADD actions.

    >>> names, values = {"#a": "a", "#n": "n"}, {":a": 1, ":b": 2, ":one": 1}
    >>> parse_update("SET #a = :a, b = :b ADD #n :one REMOVE c", names, values)
    Update(set=(('a', 1), ('b', 2)), remove=('c',), add=(('n', 1),))
    """
    tokens = Tokens(text, names, values)
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


def _action(clause: str, tokens: Tokens) -> Any:
    path = tokens.path()
    if clause == "REMOVE":
        return path
    if clause == "SET":
        tokens.expect("=")
    value = _constant(tokens)
    if tokens.peek()[1] in ("+", "-"):
        raise Unsupported(f"arithmetic in {tokens.text!r} is not modelled")
    return path, value


def _constant(tokens: Tokens) -> Any:
    kind, value = tokens.operand()
    if kind != "value":
        raise Unsupported(f"copying an attribute ({value}) in {tokens.text!r} is not modelled")
    return value
