"""DynamoDB's AttributeValue maps to and from Python values, with boto3's own codec made on first use.

Importing `boto3.dynamodb.types` imports boto3 itself (about 60 ms of CPU at a cold start,
bench/cold_start.py): a function pays it with its first item, not at init.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from boto3.dynamodb.types import TypeDeserializer, TypeSerializer

__all__ = ["deserialize", "serialize"]


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
