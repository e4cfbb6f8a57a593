"""The one attribute-value codec: DynamoDB's AttributeValue maps to and from Python values.

`serialize`/`deserialize` are boto3's own TypeSerializer/TypeDeserializer (made on first use).
`plain` turns a low-level item into JSON-ready values (numbers as int or float, never Decimal
strings; sets as sorted lists) and `low_level` does the reverse for plain values (floats through
Decimal's text form); stream images go through the same `plain` (`common.stream_images`).

Importing `boto3.dynamodb.types` imports boto3 itself (about 60 ms of CPU at a cold start,
bench/cold_start.py): a function pays it with its first item, not at init.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from boto3.dynamodb.types import TypeDeserializer, TypeSerializer

__all__ = ["deserialize", "low_level", "plain", "serialize"]


@cache
def _codec() -> tuple[TypeSerializer, TypeDeserializer]:
    from boto3.dynamodb.types import TypeDeserializer, TypeSerializer  # here: see the module docstring

    return TypeSerializer(), TypeDeserializer()


def serialize(value: Any) -> dict[str, Any]:
    """One Python value as an AttributeValue.

    >>> serialize({"n": 1, "b": b"\\x00"})
    {'M': {'n': {'N': '1'}, 'b': {'B': b'\\x00'}}}
    """
    attribute: dict[str, Any] = _codec()[0].serialize(value)
    return attribute


def deserialize(value: dict[str, Any]) -> Any:
    """One AttributeValue as a Python value (numbers as Decimal, binaries as boto3's Binary).

    >>> deserialize({"L": [{"N": "1.5"}, {"S": "a"}]})
    [Decimal('1.5'), 'a']
    """
    return _codec()[1].deserialize(value)


def plain(item: Mapping[str, Any], hidden: Iterable[str] = ()) -> dict[str, Any]:
    """A low-level item as JSON-ready values, without the `hidden` (internal key) attributes.

    >>> plain({"Name": {"S": "DynamoDB"}, "Views": {"N": "1000"}, "x": {"S": "-"}}, hidden=["x"])
    {'Name': 'DynamoDB', 'Views': 1000}
    """
    skip = set(hidden)
    return {k: _json_value(deserialize(v)) for k, v in item.items() if k not in skip}


def low_level(item: Mapping[str, Any]) -> dict[str, Any]:
    """Plain Python values as a low-level item (floats go through Decimal's text form)."""
    return {k: serialize(_decimal(v)) for k, v in item.items()}


def _json_value(value: Any) -> Any:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, list):
        return [_json_value(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(_json_value(v) for v in value)
    if isinstance(value, dict):
        return {k: _json_value(v) for k, v in value.items()}
    return value


def _decimal(value: Any) -> Any:
    if isinstance(value, float):
        return Decimal(str(value))
    if isinstance(value, list):
        return [_decimal(v) for v in value]
    if isinstance(value, dict):
        return {k: _decimal(v) for k, v in value.items()}
    return value
