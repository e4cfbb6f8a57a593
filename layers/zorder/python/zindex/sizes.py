"""Item sizes by DynamoDB's rules: what a read or a write of an item is billed for.

Each attribute counts the UTF-8 bytes of its name plus its value: strings their UTF-8 bytes, binaries
their length, booleans and nulls one byte, lists and maps 3 bytes plus their elements (and a byte per
element). A number takes one byte per pair of decimal digits, pairs counted from the decimal point
(5.5 is ``05.50``: two pairs), plus one byte, plus one more when negative; zero takes one byte (AWS
says "about one byte per two significant digits"; these are the exact counts DynamoDB Local bills,
measured by write units at the 1 KB edge). Reads are billed per 4 KB (eventually consistent reads at
half a unit), writes per 1 KB.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

__all__ = ["item_size", "number_size", "read_units", "write_units"]


def _value(value: Any) -> int:
    if isinstance(value, str):
        return len(value.encode())
    if isinstance(value, bool) or value is None:
        return 1
    if isinstance(value, bytes | bytearray):
        return len(value)
    if isinstance(value, int | float | Decimal):
        return number_size(value)
    if isinstance(value, Mapping):
        return 3 + sum(len(k.encode()) + _value(v) + 1 for k, v in value.items())
    if isinstance(value, list | tuple | set | frozenset):
        return 3 + sum(_value(v) + 1 for v in value)
    return len(str(value).encode())


def number_size(value: int | float | Decimal) -> int:
    """Bytes of a number: its digit pairs aligned on the decimal point, one more, one more if negative.

    >>> [number_size(Decimal(n)) for n in ("0", "7", "5.5", "100", "0.0012", "-35.6895", "8336599")]
    [1, 2, 3, 2, 2, 5, 5]
    """
    number = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    if not number:
        return 1
    sign, digits, exponent = number.as_tuple()
    assert isinstance(exponent, int), f"{value!r} is not a finite number"
    significant = list(digits)
    while significant[-1] == 0:  # trailing zeros are not stored (without normalize(): 38 digits fit)
        significant.pop()
        exponent += 1
    top = exponent + len(significant) - 1  # the position of the leading digit (units: 0)
    return top // 2 - exponent // 2 + 2 + sign


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
