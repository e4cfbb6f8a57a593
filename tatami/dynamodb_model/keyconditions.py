"""A Query's key condition: the partition key's value, and the sort key's range as order keys."""

from __future__ import annotations

from typing import Any, TypeGuard

from tatami.dynamodb_model.conditions import key_bounds
from tatami.dynamodb_model.expressions import And, Between, Compare, Node
from tatami.dynamodb_model.indexes import IndexSchema
from tatami.dynamodb_model.table import Table
from tatami.dynamodb_model.tokens import Unsupported

__all__ = ["key_range"]


def _bounds_sort_key(part: Node, schema: IndexSchema) -> TypeGuard[Compare | Between]:
    if isinstance(part, Between):
        return part.name == schema.range
    return isinstance(part, Compare) and part.name == schema.range and part.op != "<>"


def key_range(
    table: Table, schema: IndexSchema, node: Node | None
) -> tuple[Any, tuple[Any, Any], Node | None]:
    """(the partition key's value, (low, high) order keys of the sort key (None: open), the sort key's
    condition itself) of ``partition = :v [AND sort-key condition]``."""
    if node is None:
        raise Unsupported(f"a Query of {schema.name} without KeyConditionExpression")
    parts = node.parts if isinstance(node, And) else (node,)
    hash_value: Any = None
    bound: Compare | Between | None = None
    for part in parts:
        if isinstance(part, Compare) and part.name == schema.hash and part.op == "=":
            hash_value = part.value
        elif _bounds_sort_key(part, schema):
            bound = part
        else:
            raise Unsupported(f"key condition part {part!r} on {schema.name} is not modelled")
    if hash_value is None:
        raise Unsupported(f"a Query of {schema.name} needs its partition key {schema.hash} = :value")
    column = table.columns.get(schema.range) if schema.range else None
    if bound is None or column is None:
        return hash_value, (None, None), bound
    if isinstance(bound, Between):
        keys = (column.lower(bound.low), column.upper(bound.high))
        found = None if None in keys else keys
    elif isinstance(bound, Compare):
        found = key_bounds(column, bound.op, bound.value)
    else:
        found = None
    if found is None:
        raise Unsupported(f"{bound!r}: the value's type is not {schema.range}'s")
    return hash_value, found, bound
