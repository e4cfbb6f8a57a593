"""A parsed expression, evaluated: over many base rows at once (a mask), or over one item (a bool).

DynamoDB's rules: a comparison with an absent attribute, or with a value of another type, is false;
``NOT`` inverts whatever its operand gave. On an index, only the attributes the entry holds exist
(``visible``): a filter on an attribute the index does not project sees it absent.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from decimal import Decimal
from typing import Any

import numpy as np

from tatami.dynamodb_model.columns import Column
from tatami.dynamodb_model.expressions import And, Between, Compare, Exists, In, Node, Not, Or
from tatami.dynamodb_model.tokens import Unsupported

__all__ = ["holds", "key_bounds", "row_mask"]

_OPERATORS = {
    "=": lambda a, b: a == b,
    "<>": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


def key_bounds(column: Column, op: str, value: Any) -> tuple[Any, Any] | None:
    """The order keys (low, high; None: open) of ``attribute op value`` for ``= < <= > >=`` (None:
    ``value`` is of another type, so nothing compares)."""
    low, high = column.lower(value), column.upper(value)
    if low is None:
        return None
    return {
        "=": (low, high),
        "<": (None, low - 1),
        "<=": (None, high),
        ">": (high + 1, None),
        ">=": (low, None),
    }[op]


def _compare(column: Column, rows: np.ndarray, op: str, value: Any) -> np.ndarray:
    if op == "<>":
        equal = key_bounds(column, "=", value)
        return column.present(rows) & ~(column.between(rows, *equal) if equal else False)
    bounds = key_bounds(column, op, value)
    return np.zeros(len(rows), dtype=bool) if bounds is None else column.between(rows, *bounds)


def row_mask(
    node: Node, columns: Mapping[str, Column], rows: np.ndarray, visible: Collection[str] | None = None
) -> np.ndarray:
    """Which of ``rows`` satisfy ``node`` (``visible``: the attributes an index entry holds; None: all)."""

    def column(name: str) -> Column | None:
        return columns.get(name) if visible is None or name in visible else None

    def mask(part: Node) -> np.ndarray:
        if isinstance(part, And | Or):
            found = [mask(p) for p in part.parts]
            combine = np.logical_and if isinstance(part, And) else np.logical_or
            return np.asarray(combine.reduce(found))
        if isinstance(part, Not):
            return ~mask(part.part)
        own = column(part.name)
        if own is None:
            return np.full(len(rows), isinstance(part, Exists) and not part.present)
        if isinstance(part, Exists):
            return np.asarray(own.present(rows) == part.present)
        if isinstance(part, Compare):
            return _compare(own, rows, part.op, part.value)
        if isinstance(part, Between):
            low, high = own.lower(part.low), own.upper(part.high)
            return own.between(rows, low, high) if None not in (low, high) else np.zeros(len(rows), bool)
        if isinstance(part, In):
            return np.asarray(np.logical_or.reduce([_compare(own, rows, "=", v) for v in part.values]))
        raise Unsupported(f"cannot evaluate {part!r}")

    return mask(node)


def _comparable(a: Any, b: Any) -> tuple[Any, Any] | None:
    """The two values as one type DynamoDB compares (numbers as Decimal), or None across types."""
    if isinstance(a, bool) or isinstance(b, bool):
        return None
    if isinstance(a, int | float | Decimal) and isinstance(b, int | float | Decimal):
        return Decimal(a), Decimal(b)
    for kind in (str, bytes | bytearray):
        if isinstance(a, kind) and isinstance(b, kind):
            return a, b
    return None


def _holds_compare(item: Mapping[str, Any], name: str, op: str, value: Any) -> bool:
    if item.get(name) is None:
        return False
    pair = _comparable(item[name], value)
    if pair is None:
        return op == "<>"
    return bool(_OPERATORS[op](*pair))


def holds(node: Node, item: Mapping[str, Any]) -> bool:
    """Whether one item (Python values; absent attributes left out) satisfies ``node``.

    >>> from tatami.dynamodb_model.expressions import parse_condition
    >>> node = parse_condition("a BETWEEN :lo AND :hi AND NOT attribute_exists(b)", {}, {":lo": 1, ":hi": 5})
    >>> holds(node, {"a": 3}), holds(node, {"a": 3, "b": 0})
    (True, False)
    """
    if isinstance(node, And):
        return all(holds(p, item) for p in node.parts)
    if isinstance(node, Or):
        return any(holds(p, item) for p in node.parts)
    if isinstance(node, Not):
        return not holds(node.part, item)
    if isinstance(node, Exists):
        return (item.get(node.name) is not None) == node.present
    if isinstance(node, Compare):
        return _holds_compare(item, node.name, node.op, node.value)
    if isinstance(node, Between):
        return _holds_compare(item, node.name, ">=", node.low) and _holds_compare(
            item, node.name, "<=", node.high
        )
    if isinstance(node, In):
        return any(_holds_compare(item, node.name, "=", v) for v in node.values)
    raise Unsupported(f"cannot evaluate {node!r}")
