"""An item's index keys: what the maintainer writes so that the item appears in every index.

Z index: the bucket (the address's top ``bucket_bits`` bits, so writes spread over buckets, and a box
touches only the buckets whose cells it overlaps) and the binary Z-address of the attributes, each
saturated into its domain. Sorted index: the shard; its sort key is the attribute itself.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from zindex.errors import UnencodableError
from zindex.spec import IndexedTable, SortedIndex, ZIndex

__all__ = ["bucket_name", "bucket_of", "bucket_shift", "index_keys", "indexable", "key_text", "live_buckets"]


def indexable(table: IndexedTable, item: Mapping[str, Any]) -> bool:
    """Whether the item holds every declared attribute (values are checked by :func:`index_keys`)."""
    return all(item.get(a.name) is not None for a in table.attributes) and not table.is_reserved(item)


def key_text(table: IndexedTable, item: Mapping[str, Any]) -> str:
    """The item's table key as one text (what sorted-index shards hash)."""
    return "\x1f".join(str(item[name]) for name in table.key)


def _saturated(table: IndexedTable, item: Mapping[str, Any]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for attribute in table.attributes:
        value = item[attribute.name]
        # Decimal('NaN') and float NaN pass some type checks; say plainly why they cannot be indexed.
        nan = value.is_nan() if isinstance(value, Decimal) else isinstance(value, float) and math.isnan(value)
        if nan:
            raise UnencodableError(f"{attribute.name} is NaN, which has no place in an order")
        if isinstance(value, int | float | Decimal) and not isinstance(value, bool):
            value = attribute.saturate(value)
        try:
            attribute.encoding.encode(value)
        except (TypeError, ValueError, ArithmeticError) as exc:
            raise UnencodableError(f"{attribute.name}: {exc}") from None
        values[attribute.name] = value
    return values


def index_keys(table: IndexedTable, item: Mapping[str, Any]) -> dict[str, Any]:
    """The attributes that place an item in every index of ``table``.

    Raises
    ------
    UnencodableError
        A value no index can order (NaN, a string for a number, out of the encoding's range); the
        message names the attribute.

    Examples
    --------
    >>> from zorder import UInt
    >>> from zindex.spec import Attribute
    >>> t = IndexedTable("T", ("id",), (Attribute("a", UInt(8)), Attribute("b", UInt(8), (None, 15))),
    ...                  (ZIndex("ix", ("a", "b"), 4), SortedIndex("by-a", "a", shards=2)))
    >>> index_keys(t, {"id": "k", "a": 255, "b": 0})
    {'zbucket': 'ix#a', 'zaddr': b'\\xaa\\xaa', 'zshard': 'by-a#1'}
    >>> index_keys(t, {"id": "k", "a": 255, "b": 99}) == index_keys(t, {"id": "k", "a": 255, "b": 15})
    True
    """
    values = _saturated(table, item)
    keys: dict[str, Any] = {}
    for index in table.indexes:
        if isinstance(index, ZIndex):
            address = table.schema(index.name).encode(values)
            keys[index.bucket_attribute] = bucket_name(index, bucket_of(table, index, address))
            keys[index.address_attribute] = address
        elif isinstance(index, SortedIndex):
            keys[index.shard_attribute] = index.shard_name(index.shard_of(key_text(table, item)))
    return keys


def bucket_shift(table: IndexedTable, index: ZIndex) -> int:
    """Address bits below the bucket bits."""
    return table.schema(index.name).bits - index.bucket_bits


def bucket_of(table: IndexedTable, index: ZIndex, address: bytes) -> int:
    return int.from_bytes(address) >> bucket_shift(table, index)


def bucket_name(index: ZIndex, number: int) -> str:
    """The GSI partition key of bucket ``number``: fixed-width hex, so names sort like numbers.

    >>> bucket_name(ZIndex("places-z", ("a",), 11), 10)
    'places-z#00a'
    """
    width = max(1, (index.bucket_bits + 3) // 4)
    return f"{index.name}#{number:0{width}x}"


def live_buckets(table: IndexedTable, index: ZIndex) -> list[int]:
    """The buckets an item can land in: those the attributes' domains reach (all without domains).

    >>> from zorder import UInt
    >>> from zindex.spec import Attribute
    >>> t = IndexedTable("T", ("id",), (Attribute("a", UInt(4)), Attribute("b", UInt(4), (0, 7))),
    ...                  (ZIndex("ix", ("a", "b"), 2),))
    >>> live_buckets(t, t.indexes[0])
    [0, 2]
    """
    schema, shift = table.schema(index.name), bucket_shift(table, index)
    lower = {
        a: table.attribute(a).domain[0] for a in index.attributes if table.attribute(a).domain[0] is not None
    }
    upper = {
        a: table.attribute(a).domain[1] for a in index.attributes if table.attribute(a).domain[1] is not None
    }
    box = schema.box(lower, upper)
    layout = box.layout
    found = []
    for number in range(box.zmin >> shift, (box.zmax >> shift) + 1):
        first, last = number << shift, ((number + 1) << shift) - 1
        lo, hi = layout.deinterleave(first), layout.deinterleave(last)
        if all(a <= u and b >= w for a, b, w, u in zip(lo, hi, box.lower, box.upper, strict=True)):
            found.append(number)
    return found
