"""Writes: an update expression applied to an item, and the write units a write costs.

DynamoDB's rules (developer guide, "Provisioned throughput considerations for global secondary
indexes"), which DynamoDB Local reports identically with ``ReturnConsumedCapacity=INDEXES``:

* the table: one unit per 1 KB of the larger of the item before and after the write (at least one);
* each GSI: nothing when the item is in it neither before nor after, or when its entry is unchanged;
  one write of the entry when it is put, removed, or changes only in projected attributes; two (a
  delete and a put) when its index key changes. A write is billed per 1 KB of its entry.
* a conditional write whose condition fails still costs its table units (the item as it is; DynamoDB
  Local does not report it, the documentation says it is billed).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from tatami.dynamodb_model.table import Table
from tatami.dynamodb_model.tokens import Unsupported
from tatami.dynamodb_model.updates import Update
from zindex.sizes import item_size, write_units

__all__ = ["failed_write_units", "updated", "write_units_of"]

Item = Mapping[str, Any]


def updated(item: Item | None, key: Item, update: Update) -> dict[str, Any]:
    """``item`` (None: a new one with ``key``) after SET, REMOVE and ADD.

    >>> from decimal import Decimal as D
    >>> change = Update(set=(("y", 3),), remove=("x",), add=(("n", D(2)),))
    >>> updated({"id": "a", "n": D(1), "x": 2}, {"id": "a"}, change)
    {'id': 'a', 'n': Decimal('3'), 'y': 3}
    """
    found = dict(item) if item is not None else dict(key)
    for name, value in update.set:
        found[name] = value
    for name in update.remove:
        found.pop(name, None)
    for name, value in update.add:
        before = found.get(name, Decimal(0))
        if not isinstance(before, int | Decimal) or not isinstance(value, int | Decimal):
            raise Unsupported(f"ADD {name}: only numbers are modelled")
        found[name] = Decimal(before) + Decimal(value)
    return found


def _entry(table: Table, index: str, item: Item | None) -> dict[str, Any] | None:
    schema = next(s for s in table.schemas if s.name == index)
    if item is None or any(item.get(k) is None for k in schema.key_attributes()):
        return None
    names = item if schema.projection is None else (*table.key, *schema.key_attributes(), *schema.projection)
    return {n: item[n] for n in names if item.get(n) is not None}


def _index_units(table: Table, index: str, before: Item | None, after: Item | None) -> int:
    old, new = _entry(table, index, before), _entry(table, index, after)
    if (old is None and new is None) or old == new:
        return 0
    if old is None or new is None:
        return write_units(item_size(old or new or {}))
    keys = next(s for s in table.schemas if s.name == index).key_attributes()
    if any(old[k] != new[k] for k in keys):  # moved: the old entry deleted, the new one put
        return write_units(item_size(old)) + write_units(item_size(new))
    return write_units(item_size(new))


def write_units_of(table: Table, before: Item | None, after: Item | None) -> dict[str | None, int]:
    """Units of a write that turns ``before`` into ``after`` (None: absent): the table's (key None)
    and each GSI's that the write touched."""
    bigger = max(item_size(before) if before else 0, item_size(after) if after else 0)
    found: dict[str | None, int] = {None: write_units(bigger)}
    for schema in table.schemas:
        units = _index_units(table, schema.name, before, after)
        if units:
            found[schema.name] = units
    return found


def failed_write_units(before: Item | None) -> int:
    """A conditional write that failed: the item as it is (at least one unit)."""
    return write_units(item_size(before) if before else 0)
