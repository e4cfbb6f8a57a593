"""An item's index keys: what the maintainer writes so that the item appears in every index.

An item is indexed when it holds every declared attribute and each value, saturated into its domain,
encodes; each index kind then says which keys place it (:meth:`zindex.spec.Index.keys`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from zindex.errors import UnencodableError

if TYPE_CHECKING:
    from zindex.spec import IndexedTable

__all__ = ["index_keys", "indexable", "key_text"]


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
    >>> from zindex import Attribute, IndexedTable, SortedIndex, ZIndex
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
        keys.update(index.keys(table, item, values))
    return keys
