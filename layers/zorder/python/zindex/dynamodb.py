"""Every DynamoDB call of the engine, on the low-level client: index Queries and Scans, the maintainer's
conditional write-back, the statistics and status items.

Needs boto3 (the Lambda runtime provides it); the rest of the engine does not. The client is created
on first use and reused across warm invocations, or injected (the CLI's target, a test's endpoint);
boto3 and botocore's Config are imported then too, not at a cold start's init (about 150 ms of CPU).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from botocore.exceptions import ClientError

from zindex.dynamojson import to_item, to_wire, to_wire_item
from zindex.errors import StaleImageError, StatisticsError

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

    from zindex.query import Filter
    from zindex.spec import IndexedTable

__all__ = ["IndexRepository", "ReadResponse"]

STATISTICS_ATTRIBUTE = "statistics"
CONDITION_FAILED = "ConditionalCheckFailedException"
STATISTICS_ROUNDS = 6  # BatchGetItem calls for the statistics items: the first and its retries
# Searches and the maintainer run many calls at once: a pooled connection for each thread, and
# adaptive retries to absorb throttling.
CLIENT_OPTIONS: dict[str, Any] = {
    "max_pool_connections": 64,
    "retries": {"mode": "adaptive", "max_attempts": 8},
}
_making_client = threading.Lock()  # the first parallel calls make one client, not one each


@dataclass
class ReadResponse:
    """One Query or Scan response: the items that passed the filter and what the call cost."""

    items: list[dict[str, Any]]
    scanned: int
    consumed_rcu: float
    last_key: dict[str, Any] | None  # LastEvaluatedKey, as Python values


class IndexRepository:
    """The DynamoDB side of one indexed table."""

    def __init__(self, table: IndexedTable, client: DynamoDBClient | None = None) -> None:
        self.table, self._client = table, client

    @property
    def client(self) -> DynamoDBClient:
        if self._client is None:
            with _making_client:
                if self._client is None:
                    import boto3  # here, not at init: see the module docstring
                    from botocore.config import Config

                    self._client = boto3.client("dynamodb", config=Config(**CLIENT_OPTIONS))
        return self._client

    def _read(
        self,
        operation: str,
        request: dict[str, Any],
        search: Filter | None,
        limit: int | None,
        start: Mapping[str, Any] | None,
    ) -> ReadResponse:
        request = {"TableName": self.table.table, "ReturnConsumedCapacity": "TOTAL", **request}
        names, values = dict(request.pop("names", {})), dict(request.pop("values", {}))
        if search is not None:
            request["FilterExpression"] = search.expression
            names.update(search.names)
            values.update(search.values)
        if names:
            request["ExpressionAttributeNames"] = names
        if values:
            request["ExpressionAttributeValues"] = {k: to_wire(v) for k, v in values.items()}
        if limit is not None:
            request["Limit"] = limit
        if start is not None:
            request["ExclusiveStartKey"] = to_wire_item(start)
        response = getattr(self.client, operation)(**request)
        last = response.get("LastEvaluatedKey")
        return ReadResponse(
            items=[to_item(i) for i in response.get("Items", [])],
            scanned=int(response.get("ScannedCount", 0)),
            consumed_rcu=float(response.get("ConsumedCapacity", {}).get("CapacityUnits", 0.0)),
            last_key=None if last is None else to_item(last),
        )

    def query_index(
        self,
        index: str,
        condition: str,
        names: Mapping[str, str],
        values: Mapping[str, Any],
        search: Filter | None,
        limit: int | None,
        start: Mapping[str, Any] | None,
    ) -> ReadResponse:
        """One Query of a GSI: the key ``condition`` (its placeholders in ``names`` and ``values``, as
        the index's kind writes it), the filter, a Limit and where to start."""
        request = {"IndexName": index, "KeyConditionExpression": condition, "names": names, "values": values}
        return self._read("query", request, search, limit, start)

    def scan(
        self,
        index: str | None,
        segment: int,
        segments: int,
        search: Filter | None,
        limit: int | None,
        start: Mapping[str, Any] | None,
    ) -> ReadResponse:
        """One page of one segment of a parallel Scan of the table (``index`` None) or of a GSI."""
        request: dict[str, Any] = {"Segment": segment, "TotalSegments": segments}
        if index is not None:
            request["IndexName"] = index
        return self._read("scan", request, search, limit, start)

    def write_index_keys(
        self, key: Mapping[str, Any], keys: Mapping[str, Any] | None, image: Mapping[str, Any]
    ) -> None:
        """Set the index keys (``keys``; None removes them) unless a newer write changed the attributes.

        The condition: the item exists and every declared attribute still holds the image's value (or is
        still absent). Raises StaleImageError when it does not: that newer write brings its own record.
        """
        names = {f"#k{i}": n for i, n in enumerate(self.table.key)}
        values: dict[str, Any] = {}
        parts = ["attribute_exists(#k0)"]
        for i, attribute in enumerate(self.table.attributes):
            names[f"#a{i}"] = attribute.name
            if image.get(attribute.name) is None:
                parts.append(f"attribute_not_exists(#a{i})")
            else:
                parts.append(f"#a{i} = :a{i}")
                values[f":a{i}"] = image[attribute.name]
        written = self.table.written
        names.update({f"#w{i}": n for i, n in enumerate(written)})
        if keys is None:
            update = "REMOVE " + ", ".join(f"#w{i}" for i in range(len(written)))
        else:
            update = "SET " + ", ".join(f"#w{i} = :w{i}" for i in range(len(written)))
            values.update({f":w{i}": keys[n] for i, n in enumerate(written)})
        request: dict[str, Any] = {
            "TableName": self.table.table,
            "Key": to_wire_item(key),
            "UpdateExpression": update,
            "ConditionExpression": " AND ".join(parts),
            "ExpressionAttributeNames": names,
        }
        if values:
            request["ExpressionAttributeValues"] = {k: to_wire(v) for k, v in values.items()}
        try:
            self.client.update_item(**request)
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") == CONDITION_FAILED:
                raise StaleImageError(str(dict(key))) from exc
            raise

    def get_statistics(self) -> dict[str, bytes]:
        """Each index's statistics bytes (indexes without statistics are left out).

        BatchGetItem may leave keys unprocessed (throttling, its response size limit): those are asked
        again after a growing, jittered pause; still left after the last round, a StatisticsError says
        so, and the search plans with uniform estimates meanwhile (results stay exact)."""
        keys = [to_wire_item(self.table.reserved_key(i.name)) for i in self.table.indexes]
        request: dict[str, Any] = {self.table.table: {"Keys": keys}}
        found: dict[str, bytes] = {}
        for round_ in range(STATISTICS_ROUNDS):
            if round_:
                time.sleep(random.uniform(0, min(1.0, 0.05 * 2**round_)))  # full jitter, as AWS advises
            response = self.client.batch_get_item(RequestItems=request)
            for raw in response.get("Responses", {}).get(self.table.table, []):
                item = to_item(raw)
                found[str(item[self.table.key[0]]).split("#", 1)[1]] = bytes(item[STATISTICS_ATTRIBUTE])
            request = dict(response.get("UnprocessedKeys") or {})
            if not request:
                return found
        raise StatisticsError(
            f"DynamoDB left statistics of {self.table.table} unread after {STATISTICS_ROUNDS} rounds"
        )

    def put_statistics(self, index: str, data: bytes) -> None:
        item = {**self.table.reserved_key(index), STATISTICS_ATTRIBUTE: data}
        self.client.put_item(TableName=self.table.table, Item=to_wire_item(item))

    def get_status(self) -> dict[str, Any]:
        response = self.client.get_item(
            TableName=self.table.table, Key=to_wire_item(self.table.reserved_key("status"))
        )
        return to_item(response.get("Item", {}))

    def update_status(self, added: Mapping[str, int], fields: Mapping[str, Any]) -> None:
        """ADD the per-index entry deltas and SET the maintainer's progress fields, in one write."""
        names = {f"#n{i}": f"entries#{k}" for i, k in enumerate(added)}
        names.update({f"#s{i}": k for i, k in enumerate(fields)})
        values = {f":n{i}": v for i, v in enumerate(added.values())}
        values.update({f":s{i}": v for i, v in enumerate(fields.values())})
        update = "SET " + ", ".join(f"#s{i} = :s{i}" for i in range(len(fields)))
        if added:
            update += " ADD " + ", ".join(f"#n{i} :n{i}" for i in range(len(added)))
        self.client.update_item(
            TableName=self.table.table,
            Key=to_wire_item(self.table.reserved_key("status")),
            UpdateExpression=update,
            ExpressionAttributeNames=names,
            ExpressionAttributeValues={k: to_wire(v) for k, v in values.items()},
        )
