"""Item sizes and the capacity units they cost, by AWS's published rules.

Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html
("an item's size is the sum of the lengths of its attribute names and values"; strings by UTF-8
bytes, binary by bytes, numbers about one byte per two significant digits plus one, maps and lists
3 bytes plus their elements and 1 byte each) and bp-partition-key-design.html (writes round up to
1 KB units, reads to 4 KB units); transactional reads and writes cost twice as much
(transaction-apis.html#transaction-capacity-handling).
"""

from __future__ import annotations

import base64
import math
from collections.abc import Mapping
from typing import Any

from tatami.capacity.model.limits import Limits

__all__ = ["item_size", "read_units", "write_units"]


def item_size(item: Mapping[str, Any]) -> int:
    """The size in bytes of an item given as DynamoDB attribute values ({"name": {"S": "..."}}).

    >>> item_size({"pk": {"S": "v1#4#8.0.0.0/8"}, "n": {"N": "12345"}, "flag": {"BOOL": True}})
    26
    """
    return sum(len(name.encode()) + _value_size(value) for name, value in item.items())


def write_units(size: int, limits: Limits | None = None, transactional: bool = False) -> int:
    """Write units of one write of an item of `size` bytes (at least one; twice in a transaction).

    >>> write_units(1), write_units(1024), write_units(1025), write_units(1025, transactional=True)
    (1, 1, 2, 4)
    """
    units = max(1, math.ceil(size / (limits or Limits()).write_unit_bytes))
    return 2 * units if transactional else units


def read_units(
    size: int, consistent: bool = False, limits: Limits | None = None, transactional: bool = False
) -> float:
    """Read units of one read of `size` bytes: half a unit per 4 KB when eventually consistent,
    twice a strongly consistent read's in a transaction (TransactGetItems).

    >>> read_units(100), read_units(100, consistent=True), read_units(5000)
    (0.5, 1.0, 1.0)
    >>> read_units(100, transactional=True)
    2.0
    """
    units = max(1, math.ceil(size / (limits or Limits()).read_unit_bytes))
    if transactional:
        return 2.0 * units
    return float(units) if consistent else units / 2


def _value_size(value: Mapping[str, Any]) -> int:
    ((kind, data),) = value.items()
    if kind == "S":
        return len(data.encode())
    if kind == "N":
        return _number_size(data)
    if kind == "B":
        return len(data if isinstance(data, bytes | bytearray) else base64.b64decode(data))
    if kind in ("BOOL", "NULL"):
        return 1
    if kind in ("SS", "NS", "BS"):
        element = {"SS": "S", "NS": "N", "BS": "B"}[kind]
        return sum(_value_size({element: member}) for member in data)
    if kind == "M":
        return 3 + sum(len(k.encode()) + _value_size(v) + 1 for k, v in data.items())
    if kind == "L":
        return 3 + sum(_value_size(v) + 1 for v in data)
    raise ValueError(f"unknown attribute value type {kind!r}")


def _number_size(text: str) -> int:
    digits = text.lstrip("+-").replace(".", "").split("e")[0].split("E")[0].strip("0") or "0"
    return (len(digits) + 1) // 2 + 1
