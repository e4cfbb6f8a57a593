"""DynamoDB's attribute-value JSON to Python values and back, for the low-level client and for stream
images (which Lambda delivers with binaries in base64, nested ones included).

Numbers become ``Decimal`` (exact, as DynamoDB stores them), binaries ``bytes``, sets Python sets.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

__all__ = ["to_item", "to_python", "to_wire", "to_wire_item"]


def _binary(data: Any, base64_binaries: bool) -> bytes:
    return base64.b64decode(data) if base64_binaries and isinstance(data, str) else bytes(data)


_SCALARS: dict[str, Any] = {
    "S": lambda data, b64: data,
    "N": lambda data, b64: Decimal(data),
    "B": _binary,
    "BOOL": lambda data, b64: bool(data),
    "NULL": lambda data, b64: None,
    "SS": lambda data, b64: set(data),
    "NS": lambda data, b64: {Decimal(n) for n in data},
    "BS": lambda data, b64: {_binary(b, b64) for b in data},
}


def to_python(value: Mapping[str, Any], base64_binaries: bool = False) -> Any:
    """One attribute value as a Python value.

    >>> to_python({"M": {"n": {"N": "1.50"}, "b": {"B": "AAE="}}}, base64_binaries=True)
    {'n': Decimal('1.50'), 'b': b'\\x00\\x01'}
    """
    ((kind, data),) = value.items()
    if kind == "M":
        return {k: to_python(v, base64_binaries) for k, v in data.items()}
    if kind == "L":
        return [to_python(v, base64_binaries) for v in data]
    if kind not in _SCALARS:
        raise ValueError(f"unknown DynamoDB attribute type {kind!r}")
    return _SCALARS[kind](data, base64_binaries)


def to_item(item: Mapping[str, Mapping[str, Any]], base64_binaries: bool = False) -> dict[str, Any]:
    """An item (or a stream image) as a dict of Python values."""
    return {name: to_python(value, base64_binaries) for name, value in item.items()}


def to_wire(value: Any) -> dict[str, Any]:
    """A Python value as an attribute value for the low-level client.

    >>> to_wire(Decimal("2.5")), to_wire(b"\\x01"), to_wire(7), to_wire({"a": [True, None]})
    ({'N': '2.5'}, {'B': b'\\x01'}, {'N': '7'}, {'M': {'a': {'L': [{'BOOL': True}, {'NULL': True}]}}})
    """
    if isinstance(value, str):
        return {"S": value}
    if isinstance(value, bool):
        return {"BOOL": value}
    if value is None:
        return {"NULL": True}
    if isinstance(value, bytes | bytearray):
        return {"B": bytes(value)}
    if isinstance(value, int | Decimal):
        return {"N": str(value)}
    if isinstance(value, float):
        return {"N": repr(value)}
    if isinstance(value, Mapping):
        return {"M": {k: to_wire(v) for k, v in value.items()}}
    if isinstance(value, list | tuple):
        return {"L": [to_wire(v) for v in value]}
    raise TypeError(f"cannot store {type(value).__name__} {value!r} in DynamoDB")


def to_wire_item(item: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    return {name: to_wire(value) for name, value in item.items()}
