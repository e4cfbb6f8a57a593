"""DynamoDB's attribute-value JSON to Python values and back, for the low-level client and for stream
images (which Lambda delivers with binaries in base64, nested ones included).

Numbers become ``Decimal`` (exact, as DynamoDB stores them), binaries ``bytes``, sets Python sets.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

__all__ = ["as_bound", "storable", "to_item", "to_python", "to_wire", "to_wire_item"]

SMALLEST = Decimal("1E-130")  # the smallest magnitude a DynamoDB number holds (besides 0)


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


def storable(value: Decimal) -> Decimal:
    """A number DynamoDB can hold: magnitudes below 1E-130 become 0, the nearest number it holds.

    >>> storable(Decimal("2.2E-313")), storable(Decimal("35.6"))
    (Decimal('0'), Decimal('35.6'))
    """
    return Decimal(0) if value and abs(value) < SMALLEST else value


def as_bound(value: Any, upper: bool) -> Any:
    """A search bound DynamoDB can compare, selecting the same stored numbers: nothing is stored
    strictly between 0 and +-1E-130, so a bound there moves to the nearest side that keeps the same
    items (a lower bound of 2E-313 selects what 1E-130 does; an upper bound of 2E-313 what 0 does).

    >>> as_bound(Decimal("2E-313"), upper=False), as_bound(Decimal("2E-313"), upper=True)
    (Decimal('1E-130'), Decimal('0'))
    >>> as_bound(Decimal("-2E-313"), upper=False), as_bound("text", upper=True)
    (Decimal('0'), 'text')
    """
    if not isinstance(value, Decimal | float) or not value or abs(Decimal(value)) >= SMALLEST:
        return value
    if value > 0:
        return Decimal(0) if upper else SMALLEST
    return -SMALLEST if upper else Decimal(0)
