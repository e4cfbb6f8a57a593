"""Item sizes by DynamoDB's rules: what a read or a write of an item is billed for.

Each attribute counts the UTF-8 bytes of its name plus its value: strings their UTF-8 bytes, binaries
their length, numbers about one byte per two significant digits plus one, booleans and nulls one byte,
lists and maps 3 bytes plus their elements (and a byte per element). Reads are billed per 4 KB
(eventually consistent reads at half a unit), writes per 1 KB.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

__all__ = ["item_size", "read_units", "write_units"]


def _value(value: Any) -> int:
    if isinstance(value, str):
        return len(value.encode())
    if isinstance(value, bool) or value is None:
        return 1
    if isinstance(value, bytes | bytearray):
        return len(value)
    if isinstance(value, int | float | Decimal):
        digits = Decimal(value).normalize().as_tuple().digits if value else (0,)
        return (len(digits) + 1) // 2 + 1
    if isinstance(value, Mapping):
        return 3 + sum(len(k.encode()) + _value(v) + 1 for k, v in value.items())
    if isinstance(value, list | tuple | set | frozenset):
        return 3 + sum(_value(v) + 1 for v in value)
    return len(str(value).encode())


def item_size(item: Mapping[str, Any]) -> int:
    """Bytes of an item (plain Python values) as DynamoDB sizes it.

    >>> item_size({"id": "1850147", "name": "Tokyo", "population": 8336599})
    33
    """
    return sum(len(name.encode()) + _value(value) for name, value in item.items())


def read_units(items: float, entry_bytes: float) -> float:
    """Read units of one eventually consistent Query or Scan page that reads ``items`` entries.

    >>> read_units(0, 100), read_units(3, 100), read_units(41, 100)
    (0.5, 0.5, 1.0)
    """
    return 0.5 * max(1, math.ceil(items * entry_bytes / 4096 - 1e-9))


def write_units(item_bytes: float) -> int:
    """Write units of one write of an item of ``item_bytes`` bytes.

    >>> write_units(100), write_units(1025)
    (1, 2)
    """
    return max(1, math.ceil(item_bytes / 1024))
