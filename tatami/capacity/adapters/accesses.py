"""Recorded calls (`tatami.local.engines.traffic`) -> accesses: which table or index, which key,
how many units.

A call's consumed capacity is split over the items it touched: a batch's table units in proportion
to each item's write units (its size by AWS's rules), an index's units over the items that carry
the index's key. Which attribute is which key comes from the tables' schemas (DescribeTable).
Updates name their new index keys only when the SET clause assigns them (`SET #a = :v`); a delete's
old index keys are not in the request, so those index writes go to an unnamed key of their own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from tatami.capacity.model.items import item_size, write_units

__all__ = ["Access", "Schema", "accesses"]

WRITES = {"PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems"}
_ASSIGNMENT = re.compile(r"([#\w.]+)\s*=\s*(:\w+)")
_EQUALITY = re.compile(r"([#\w]+)\s*=\s*(:\w+)")


@dataclass(frozen=True)
class Schema:
    """A table's key attributes and its indexes' (global ones only: local ones share the table's)."""

    table: str
    pk: str
    sk: str | None = None
    indexes: Mapping[str, tuple[str, str | None]] = field(default_factory=dict)
    lsi: bool = False  # it has a local secondary index (item collections at most 10 GB, never split)


@dataclass(frozen=True)
class Access:
    time: float
    table: str
    index: str  # "" for the table itself
    write: bool
    pk: Any  # an attribute value ({"S": "..."}), or None when the request does not show it
    sk: Any  # an attribute value, or None
    units: float
    size: int  # bytes written (0 for reads)
    call: int  # the recorded call it is part of
    item: int  # the item of the call it concerns (an index write belongs to its item's table write)
    lsi: bool = False  # its table has a local secondary index


def accesses(records: list[dict[str, Any]], schemas: Mapping[str, Schema]) -> Iterator[Access]:
    """Every access of every recorded call, in the order of the records."""
    for number, record in enumerate(records):
        consumed = record.get("cc") or []
        items = list(_items(record["op"], record["req"]))
        for entry in consumed if isinstance(consumed, list) else [consumed]:
            schema = schemas.get(entry.get("TableName", ""))
            mine = [item for item in items if schema and item.table == schema.table]
            if schema and mine:
                yield from _split(number, record, schema, mine, entry)


@dataclass(frozen=True)
class _Item:
    table: str
    attributes: dict[str, Any]  # the key, plus the whole item when written whole, plus SET values
    size: int  # bytes of the item written whole (0 otherwise)


def _split(
    number: int, record: dict[str, Any], schema: Schema, mine: list[_Item], entry: dict[str, Any]
) -> Iterator[Access]:
    """One table's share of a call: its items' table accesses, then their index accesses."""
    write, time = record["op"] in WRITES, float(record["t"])
    table_units = float((entry.get("Table") or entry).get("CapacityUnits", 0.0))
    local = (entry.get("LocalSecondaryIndexes") or {}).values()  # local indexes share the table's partitions
    table_units += sum(float(lsi.get("CapacityUnits", 0.0)) for lsi in local)
    weights = [write_units(item.size) if write and item.size else 1 for item in mine]
    for position, (item, weight) in enumerate(zip(mine, weights, strict=True)):
        units = table_units * weight / sum(weights)
        if units:
            keys = _keys(item, schema.pk, schema.sk)
            yield Access(time, schema.table, "", write, *keys, units, item.size, number, position, schema.lsi)
    for name, used in (entry.get("GlobalSecondaryIndexes") or {}).items():
        pk, sk = schema.indexes.get(name, (schema.pk, schema.sk))
        carriers = [n for n, item in enumerate(mine) if pk in item.attributes] or list(range(len(mine)))
        units = float(used.get("CapacityUnits", 0.0)) / len(carriers)
        for position in carriers if units else []:
            keys = _keys(mine[position], pk, sk)
            yield Access(time, schema.table, name, write, *keys, units, 0, number, position, schema.lsi)


def _keys(item: _Item, pk: str, sk: str | None) -> tuple[Any, Any]:
    return item.attributes.get(pk), item.attributes.get(sk) if sk else None


def _items(op: str, request: dict[str, Any]) -> Iterator[_Item]:
    """The items a request touches, with what it shows of their attributes."""
    if op == "BatchWriteItem":
        for table, writes in request["RequestItems"].items():
            for write in writes:
                yield _item(table, write.get("PutRequest") or write.get("DeleteRequest") or {})
    elif op == "BatchGetItem":
        for table, reads in request["RequestItems"].items():
            yield from (_item(table, {"Key": key}) for key in reads["Keys"])
    elif op in ("TransactWriteItems", "TransactGetItems"):
        for entry in request["TransactItems"]:
            body = next(iter(entry.values()))
            yield _item(body["TableName"], body)
    elif op == "Query":
        yield _Item(request["TableName"], _conditions(request), 0)
    else:  # PutItem, GetItem, UpdateItem, DeleteItem, Scan
        yield _item(request["TableName"], request)


def _item(table: str, body: dict[str, Any]) -> _Item:
    whole = body.get("Item")
    attributes = {**body.get("Key", {}), **(whole or {}), **_assigned(body)}
    return _Item(table, attributes, item_size(whole) if whole else 0)


def _assigned(request: dict[str, Any]) -> dict[str, Any]:
    """Attributes an update's SET clause assigns plain values to (how it moves index keys)."""
    expression = request.get("UpdateExpression") or ""
    clause = (
        re.split(r"\b(?:REMOVE|ADD|DELETE)\b", expression.split("SET", 1)[1])[0]
        if "SET" in expression
        else ""
    )
    return _resolve(_ASSIGNMENT.findall(clause), request)


def _conditions(request: dict[str, Any]) -> dict[str, Any]:
    """The equality conditions of a Query's key condition (its partition key's value)."""
    return _resolve(_EQUALITY.findall(request.get("KeyConditionExpression", "")), request)


def _resolve(pairs: list[tuple[str, str]], request: dict[str, Any]) -> dict[str, Any]:
    names = request.get("ExpressionAttributeNames") or {}
    values = request.get("ExpressionAttributeValues") or {}
    return {names.get(name, name): values[value] for name, value in pairs if value in values}
