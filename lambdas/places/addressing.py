"""Addresses and buckets: where an item sits in the sparse GSI, and which buckets a query box touches.

The bucket is the address's top ``bucket_bits`` bits (zorder puts every dimension's most significant bits
at the top), so buckets are coarse cells of the Z curve: writes spread over them, and a box touches only
the buckets whose cells it overlaps. Within a bucket, the sort key is the whole binary address.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from places.exceptions import UnencodableError
from places.settings import IndexSettings, saturate
from zorder import Box


@dataclass(frozen=True, slots=True)
class Placement:
    """An item's GSI keys: the binary Z-address and the bucket (partition key)."""

    address: bytes
    bucket: str


def placement(settings: IndexSettings, item: Mapping[str, Any]) -> Placement:
    """Compute the GSI keys of an item that holds every indexed attribute.

    A value beyond the index's ``domain`` takes the address of the domain's nearest end (the filter of
    every search compares the real value, so results stay exact).

    Raises
    ------
    UnencodableError
        A value the schema cannot order (NaN, a string, a bool, out of range); the message names it.

    Examples
    --------
    >>> from zorder import Fixed, Schema, UInt
    >>> s = IndexSettings("T", "ix", Schema.of(a=UInt(8), b=UInt(8)), bucket_bits=4)
    >>> placement(s, {"a": 255, "b": 0})
    Placement(address=b'\\xaa\\xaa', bucket='ix#a')
    >>> capped = IndexSettings("T", "ix", s.schema, bucket_bits=4, domain={"a": (None, 15)})
    >>> placement(capped, {"a": 255, "b": 0}) == placement(capped, {"a": 15, "b": 0})
    True
    """
    saturated: dict[str, Any] = {}
    for name in settings.schema.names:
        value = item[name]
        # Decimal('NaN') and float NaN pass some type checks; say plainly why they cannot be indexed.
        nan = value.is_nan() if isinstance(value, Decimal) else isinstance(value, float) and math.isnan(value)
        if nan:
            raise UnencodableError(f"{name} is NaN, which has no place in an order")
        if isinstance(value, int | float | Decimal) and not isinstance(value, bool):
            stored = saturate(value, *settings.domain.get(name, (None, None)))
            if stored is not value:
                saturated[name] = stored
    try:
        address = settings.schema.encode({**item, **saturated} if saturated else item)
    except (TypeError, ValueError, ArithmeticError) as exc:
        raise UnencodableError(str(exc)) from None
    return Placement(address, settings.bucket_name(settings.bucket_of(address)))


def has_dimensions(settings: IndexSettings, item: Mapping[str, Any]) -> bool:
    """Whether the item holds every indexed attribute (the GSI is sparse: otherwise it is absent)."""
    return all(item.get(name) is not None for name in settings.schema.names)


def bucket_bounds(settings: IndexSettings, number: int) -> tuple[int, int]:
    """First and last address (as ints) of bucket ``number``.

    >>> from zorder import Schema, UInt
    >>> bucket_bounds(IndexSettings("T", "ix", Schema.of(a=UInt(8)), bucket_bits=2), 1)
    (64, 127)
    """
    shift = settings.bucket_shift
    return number << shift, ((number + 1) << shift) - 1


def bucket_boxes(settings: IndexSettings, box: Box) -> list[tuple[int, Box]]:
    """The buckets a box touches, each with the part of the box inside it, in bucket order.

    A bucket is an aligned Z block, i.e. a product of one aligned interval per dimension, so its
    intersection with a box is again a box.

    >>> from zorder import Schema, UInt
    >>> s = IndexSettings("T", "ix", Schema.of(y=UInt(3), x=UInt(3)), bucket_bits=2)
    >>> [(n, b.lower, b.upper) for n, b in bucket_boxes(s, s.schema.box({"x": 2, "y": 2}, {"x": 5, "y": 3}))]
    [(0, (2, 2), (3, 3)), (1, (2, 4), (3, 5))]
    """
    layout = box.layout
    out = []
    for number in range(box.zmin >> settings.bucket_shift, (box.zmax >> settings.bucket_shift) + 1):
        first, last = bucket_bounds(settings, number)
        cell_lo, cell_hi = layout.deinterleave(first), layout.deinterleave(last)
        lower = tuple(max(a, b) for a, b in zip(box.lower, cell_lo, strict=True))
        upper = tuple(min(a, b) for a, b in zip(box.upper, cell_hi, strict=True))
        if all(lo <= hi for lo, hi in zip(lower, upper, strict=True)):
            out.append((number, Box(box.dimensions, lower, upper)))
    return out


def live_buckets(settings: IndexSettings) -> list[int]:
    """The buckets an item can land in: those the index's domain reaches (all of them without one).

    >>> from zorder import Schema, UInt
    >>> s = IndexSettings("T", "ix", Schema.of(a=UInt(4), b=UInt(4)), bucket_bits=2, domain={"b": (0, 7)})
    >>> live_buckets(s)
    [0, 2]
    """
    lower = {name: low for name, (low, _) in settings.domain.items() if low is not None}
    upper = {name: high for name, (_, high) in settings.domain.items() if high is not None}
    return [number for number, _ in bucket_boxes(settings, settings.schema.box(lower, upper))]
