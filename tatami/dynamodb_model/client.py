"""The model as a low-level DynamoDB client: the calls the Z-index engine makes, in the same request and
response shapes, so ``zindex.dynamodb.IndexRepository(declaration, client=ModelDynamoDB())`` runs the
planner, optimizer, executor and maintainer unchanged.

Modelled: CreateTable; Query of a GSI by key condition (``=`` on the partition key, a comparison or
BETWEEN on the sort key) with a filter, Limit and ExclusiveStartKey; Scan (of the table or a GSI, in
segments); GetItem, BatchGetItem; PutItem, UpdateItem (SET, REMOVE, ADD), DeleteItem with conditions;
BatchWriteItem. Every read and write is billed by DynamoDB's rules and added to ``meter``.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from botocore.exceptions import ClientError

from tatami.dynamodb_model.columns import Column
from tatami.dynamodb_model.conditions import holds
from tatami.dynamodb_model.keyconditions import key_range
from tatami.dynamodb_model.loading import columns_of
from tatami.dynamodb_model.pages import PageSource, read_page
from tatami.dynamodb_model.requests import Request, consumed
from tatami.dynamodb_model.schema import Meter, table_schema
from tatami.dynamodb_model.semantics import DOCUMENTED, Semantics
from tatami.dynamodb_model.streams import index_scan, query, table_scan
from tatami.dynamodb_model.table import Table
from tatami.dynamodb_model.tokens import Unsupported
from tatami.dynamodb_model.writes import failed_write_units, updated, write_units_of
from zindex.dynamojson import to_item, to_wire_item
from zindex.sizes import item_size, read_units

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

__all__ = ["ModelDynamoDB"]


class ModelDynamoDB:
    """Tables held in this process; ``semantics``: the documented service's, or DynamoDB Local's."""

    def __init__(self, semantics: Semantics = DOCUMENTED) -> None:
        self.semantics, self.tables, self.meter = semantics, dict[str, Table](), Meter()
        self._lock = threading.RLock()

    def as_client(self) -> DynamoDBClient:
        """The model typed as the boto3 client it stands in for (for the calls listed above)."""
        return cast("DynamoDBClient", self)

    def table(self, name: str) -> Table:
        if name not in self.tables:
            raise ClientError({"Error": {"Code": "ResourceNotFoundException", "Message": name}}, "Model")
        return self.tables[name]

    def load(self, table: str, columns: Mapping[str, Column]) -> None:
        """Set a new table's base rows from columns (see :meth:`Table.load`)."""
        with self._lock:
            self.table(table).load(columns)

    def load_items(self, table: str, items: Sequence[Mapping[str, Any]]) -> None:
        """Set a new table's base rows from items (Python values), as columns where they fit."""
        columns, rest = columns_of(items)
        with self._lock:
            if columns:
                self.table(table).load(columns)
            for item in rest:
                self.table(table).replace(self.table(table).key_of(item), item)

    # --- tables -------------------------------------------------------------------------------------
    def create_table(self, **params: Any) -> dict[str, Any]:
        name, key, indexes = table_schema(Request("CreateTable", params))
        with self._lock:
            self.tables[name] = Table(name, key, indexes, self.semantics)
        return {"TableDescription": {"TableName": name, "TableStatus": "ACTIVE"}}

    def list_tables(self, **params: Any) -> dict[str, Any]:
        return {"TableNames": sorted(self.tables)}

    # --- reads --------------------------------------------------------------------------------------
    def _page(self, request: Request, table: Table, index: str | None, stream: Any) -> dict[str, Any]:
        search, limit = request.condition("FilterExpression"), request.take("Limit")
        counting = request.take("Select") == "COUNT"
        request.done()
        schema = next((s for s in table.schemas if s.name == index), None)
        names = None if schema is None or schema.projection is None else table.entry_names(schema)
        keys = tuple(dict.fromkeys((*table.key, *(schema.key_attributes() if schema else ()))))
        semantics = self.semantics
        units_of = semantics.scan_bytes if request.operation == "Scan" else "entry"
        source = PageSource(table, index, names, keys, units_of, semantics.page_bytes)
        page = read_page(source, stream, limit, search)
        units = page.read_units(self.semantics.empty_read_units, request.consistent)
        self.meter.calls[request.operation] += 1
        self.meter.read_units[request.operation] += units
        response: dict[str, Any] = {"Count": len(page.items), "ScannedCount": page.scanned}
        if not counting:
            response["Items"] = page.items
        if page.last is not None:
            response["LastEvaluatedKey"] = to_wire_item(page.last)
        return response | consumed(request, table.name, {index: units})

    def query(self, **params: Any) -> dict[str, Any]:
        request = Request("Query", params)
        with self._lock:
            table, name = self.table(request.need("TableName")), request.take("IndexName")
            if name is None:
                raise Unsupported("a Query of a table's own key is not modelled (the engine queries GSIs)")
            index = table.indexes[name]
            hash_value, keys, bound = key_range(
                table, index.schema, request.condition("KeyConditionExpression")
            )
            stream = query(table, index, hash_value, keys, bound, request.item("ExclusiveStartKey"))
            return self._page(request, table, name, stream)

    def scan(self, **params: Any) -> dict[str, Any]:
        request = Request("Scan", params)
        with self._lock:
            table, name = self.table(request.need("TableName")), request.take("IndexName")
            segment = (int(request.take("Segment", 0)), int(request.take("TotalSegments", 1)))
            start = request.item("ExclusiveStartKey")
            if name is None:
                return self._page(request, table, None, table_scan(table, segment, start))
            return self._page(request, table, name, index_scan(table, table.indexes[name], segment, start))

    def _get(
        self, table: Table, key: dict[str, Any], consistent: bool
    ) -> tuple[dict[str, Any] | None, float]:
        item = table.get(table.key_of(key))
        return item, read_units(1, item_size(item) if item else 0) * (2 if consistent else 1)

    def get_item(self, **params: Any) -> dict[str, Any]:
        request = Request("GetItem", params)
        with self._lock:
            table, key = self.table(request.need("TableName")), request.item("Key") or {}
            request.done()
            item, units = self._get(table, key, request.consistent)
            self.meter.calls["GetItem"] += 1
            self.meter.read_units["GetItem"] += units
            found = {} if item is None else {"Item": to_wire_item(item)}
            return found | consumed(request, table.name, {None: units})

    def batch_get_item(self, **params: Any) -> dict[str, Any]:
        request = Request("BatchGetItem", params)
        wanted = request.need("RequestItems")
        request.done()
        responses: dict[str, list[Any]] = {}
        with self._lock:
            for name, spec in wanted.items():
                table, total = self.table(name), 0.0
                for key in spec["Keys"]:
                    item, units = self._get(table, to_item(key), False)
                    total += units
                    if item is not None:
                        responses.setdefault(name, []).append(to_wire_item(item))
                self.meter.calls["BatchGetItem"] += 1
                self.meter.read_units["BatchGetItem"] += total
        return {"Responses": responses, "UnprocessedKeys": {}}

    # --- writes -------------------------------------------------------------------------------------
    def _write(self, request: Request, table: Table, key: dict[str, Any], make: Any) -> dict[str, Any]:
        """Check the condition against the current item, write ``make(current)``, bill it."""
        condition = request.condition("ConditionExpression")
        returned = request.take("ReturnValues", "NONE")
        current = table.get(table.key_of(key))
        new = make(current)
        request.done()
        self.meter.calls[request.operation] += 1
        if condition is not None and not holds(condition, current or {}):
            self.meter.write_units["table"] += failed_write_units(current)
            error = {"Code": "ConditionalCheckFailedException", "Message": "The conditional request failed"}
            raise ClientError({"Error": error}, request.operation)
        units = write_units_of(table, current, new)
        for target, count in units.items():
            self.meter.write_units[target or "table"] += count
        table.replace(table.key_of(key), new)
        shown = {"ALL_NEW": new, "ALL_OLD": current}.get(returned)
        return consumed(request, table.name, units) | ({"Attributes": to_wire_item(shown)} if shown else {})

    def put_item(self, **params: Any) -> dict[str, Any]:
        request = Request("PutItem", params)
        with self._lock:
            table, item = self.table(request.need("TableName")), request.item("Item") or {}
            return self._write(request, table, item, lambda current: item)

    def update_item(self, **params: Any) -> dict[str, Any]:
        request = Request("UpdateItem", params)
        with self._lock:
            table, key, update = (
                self.table(request.need("TableName")),
                request.item("Key") or {},
                request.update(),
            )
            return self._write(request, table, key, lambda current: updated(current, key, update))

    def delete_item(self, **params: Any) -> dict[str, Any]:
        request = Request("DeleteItem", params)
        with self._lock:
            table, key = self.table(request.need("TableName")), request.item("Key") or {}
            return self._write(request, table, key, lambda current: None)

    def batch_write_item(self, **params: Any) -> dict[str, Any]:
        request = Request("BatchWriteItem", params)
        wanted = request.need("RequestItems")
        request.done()
        for name, writes in wanted.items():
            for write in writes:
                if "PutRequest" in write:
                    self.put_item(TableName=name, Item=write["PutRequest"]["Item"])
                else:
                    self.delete_item(TableName=name, Key=write["DeleteRequest"]["Key"])
        return {"UnprocessedItems": {}}
