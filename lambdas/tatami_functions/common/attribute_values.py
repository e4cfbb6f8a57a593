"""The one attribute-value codec: DynamoDB's AttributeValue maps to and from Python values.

`serialize`/`deserialize` are boto3's own TypeSerializer/TypeDeserializer (made on first use).
`plain` turns a low-level item into JSON-ready values (`json_value`: numbers as int or float, never
Decimal strings; binaries as base64; sets as sorted lists) and `low_level` does the reverse for plain
values (floats through Decimal's text form); stream images go through the same `plain`
(`common.stream_images`), DynamoDB JSON lines through `binary_as_base64`.

Importing `boto3.dynamodb.types` imports boto3 itself (about 60 ms of CPU at a cold start,
bench/cold_start.py): a function pays it with its first item, not at init.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable, Mapping
from decimal import Decimal
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from boto3.dynamodb.types import TypeDeserializer, TypeSerializer

__all__ = ["binary_as_base64", "deserialize", "json_value", "low_level", "plain", "serialize"]


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
    return {k: json_value(deserialize(v)) for k, v in item.items() if k not in skip}


def low_level(item: Mapping[str, Any]) -> dict[str, Any]:
    """Plain Python values as a low-level item (floats go through Decimal's text form)."""
    return {k: serialize(_decimal(v)) for k, v in item.items()}


def json_value(value: Any) -> Any:
    """A Python value of an item as plain JSON: numbers as int or float (never Decimal text), binaries
    as base64 text (as DynamoDB's own exports write them), sets as sorted lists, containers inside out.

    >>> json_value({"n": Decimal("2"), "x": Decimal("1.5"), "b": b"hi", "s": {Decimal("3"), Decimal("1")}})
    {'n': 2, 'x': 1.5, 'b': 'aGk=', 's': [1, 3]}
    """
    if isinstance(value, Decimal):
        if not value.is_finite():  # DynamoDB stores no NaN or infinity: the value did not come from it
            raise ValueError(f"{value} is not a number DynamoDB stores")
        return int(value) if value == value.to_integral_value() else float(value)
    if _is_binary(value):
        return binary_as_base64(value)
    if isinstance(value, set | frozenset):
        return sorted(json_value(v) for v in value)
    if isinstance(value, list | tuple):
        return [json_value(v) for v in value]
    if isinstance(value, Mapping):
        return {k: json_value(v) for k, v in value.items()}
    return value


def binary_as_base64(value: Any) -> str:
    """`json.dumps`' `default=` for DynamoDB JSON: a binary as base64 text, as DynamoDB's exports write it.

    >>> import json
    >>> json.dumps({"B": b"\\x08"}, default=binary_as_base64)
    '{"B": "CA=="}'
    """
    if _is_binary(value):
        return base64.b64encode(bytes(value)).decode("ascii")
    raise TypeError(f"cannot write {type(value).__name__} into DynamoDB JSON")


def _is_binary(value: Any) -> bool:
    # bytes, bytearray, or boto3's `Binary` wrapper (which the deserializer gives for B values)
    return isinstance(value, bytes | bytearray) or hasattr(value, "__bytes__")


def _decimal(value: Any) -> Any:
    if isinstance(value, float):
        return Decimal(str(value))
    if isinstance(value, list):
        return [_decimal(v) for v in value]
    if isinstance(value, dict):
        return {k: _decimal(v) for k, v in value.items()}
    return value
