"""The device_logs table: key names, expressions, the four read paths and `ClientError` translation.

Reads ask for ReturnConsumedCapacity and count ScannedCount beside what they return, so a route can
show that a key condition, not a filter, did the work. The only filter hides logs past their TTL:
DynamoDB deletes expired items within days, not at once (the seed warns of it).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Self

from tatami_functions.common.repository import CONDITION_FAILED, TableRepository
from tatami_functions.devices.exceptions import (
    DeviceLogsUnavailableError,
    LogConflictError,
    LogNotFoundError,
)
from tatami_functions.devices.items import (
    BY_LEVEL_THEN_TIME,
    BY_TIME,
    Reads,
    from_item,
    to_item,
    update_expression,
)
from tatami_functions.devices.merge import Key, Stream, merge_page
from tatami_functions.devices.models import DeviceLog, Level, sort_key
from tatami_functions.devices.settings import DEFAULT_SHARDS, DeviceLogsSettings

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

OPERATOR_INDEX = "GSI_operator_created_at"
ESCALATION_INDEX = "GSI_escalated_to_level_with_created_at"
SHARD_INDEX = "GSI_shard_id_created_at"
Window = tuple[str, str]  # canonical created_at bounds, both inclusive
Items = list[dict[str, Any]]
_DEVICE_LEVEL_WINDOW = "device_id = :device AND level_with_created_at BETWEEN :low AND :high"
_LIVE = "attribute_not_exists(expires_at) OR expires_at > :now"


class DeviceLogsTable(TableRepository):
    """The seed's `device_logs` table and its three GSIs.

    >>> logs = DeviceLogsTable("Tatami-DeviceLogs", client=boto3.client("dynamodb"))  # doctest: +SKIP
    >>> logs.device_logs("12345", [Level.WARNING], (EARLIEST, LATEST), None, 25, Reads())  # doctest: +SKIP
    ([DeviceLog(device_id='12345', level=<Level.WARNING: 'WARNING'>, ...)], None)
    """

    noun, unavailable, settings = "device logs", DeviceLogsUnavailableError, DeviceLogsSettings

    def __init__(self, table_name: str, shards: int = DEFAULT_SHARDS, client: DynamoDBClient | None = None):
        super().__init__(table_name, client)
        self.shards = shards

    @classmethod
    def _from_env(cls) -> Self:
        settings = DeviceLogsSettings.from_env()
        return cls(settings.table, settings.shards)

    def put(self, log: DeviceLog) -> None:
        """Store a log; a retry of the same log succeeds, a different one on its key is a conflict."""
        self._write(
            "put_item",
            LogConflictError(f"device {log.device_id} already has a different {log.sort_key} log"),
            Item=to_item(log),
            ConditionExpression="attribute_not_exists(device_id) OR message = :message",
            ExpressionAttributeValues={":message": {"S": log.message}},
        )

    def assign(
        self, device_id: str, level: Level, created_at: str, changes: dict[str, str | None]
    ) -> DeviceLog:
        """Set (or remove, for None) `operator`/`escalated_to` of an existing log; returns the log."""
        key = {"device_id": {"S": device_id}, "level_with_created_at": {"S": sort_key(level, created_at)}}
        response = self._write(
            "update_item",
            LogNotFoundError(f"device {device_id} has no {sort_key(level, created_at)} log"),
            Key=key,
            ConditionExpression="attribute_exists(device_id)",
            ReturnValues="ALL_NEW",
            **update_expression(changes),
        )
        return from_item(response["Attributes"])

    def _write(self, operation: str, on_condition: Exception, **request: Any) -> Any:
        """A conditional write: a failed condition raises `on_condition`, other failures Unavailable."""
        errors = {CONDITION_FAILED: on_condition}
        return self._call(
            operation, errors=errors, action="write a device log", TableName=self.table_name, **request
        )

    def device_logs(
        self, device_id: str, levels: Sequence[Level], window: Window, cursor: Any, limit: int, reads: Reads
    ) -> tuple[list[DeviceLog], Any]:
        """A device's logs of the given levels in the window, newest first (one Query per level, merged)."""

        def level_stream(level: Level) -> Stream[dict[str, Any]]:
            def fetch(start: Key | None, n: int) -> tuple[Items, Key | None]:
                return self._read(
                    reads,
                    start,
                    n,
                    KeyConditionExpression=_DEVICE_LEVEL_WINDOW,
                    ExpressionAttributeValues={
                        ":device": {"S": device_id},
                        ":low": {"S": sort_key(level, window[0])},
                        ":high": {"S": sort_key(level, window[1])},
                    },
                )

            return Stream(level.value, fetch)

        # A device's levels are skewed (mostly INFO), so each level may have to fill the page alone.
        items, cursor = merge_page(
            [level_stream(level) for level in levels], cursor, limit, limit, BY_LEVEL_THEN_TIME
        )
        return [from_item(item) for item in items], cursor

    def operator_logs(
        self, operator: str, window: Window, start: Key | None, limit: int, reads: Reads
    ) -> tuple[list[DeviceLog], Key | None]:
        """The logs an operator handled in the window, newest first (the seed's GSI_operator_created_at)."""
        items, last = self._read(
            reads,
            start,
            limit,
            IndexName=OPERATOR_INDEX,
            KeyConditionExpression="#operator = :operator AND created_at BETWEEN :low AND :high",
            ExpressionAttributeNames={"#operator": "operator"},
            ExpressionAttributeValues={
                ":operator": {"S": operator},
                ":low": {"S": window[0]},
                ":high": {"S": window[1]},
            },
        )
        return [from_item(item) for item in items], last

    def escalations(
        self, escalated_to: str | None, level: Level | None, start: Key | None, limit: int, reads: Reads
    ) -> tuple[list[DeviceLog], Key | None]:
        """Escalated logs from the sparse index: a Query for one person, else a Scan of the index.

        Only escalated logs exist in the index, so even the Scan reads nothing else (the seed's point).
        """
        if escalated_to is None:
            items, last = self._read(reads, start, limit, operation="scan", IndexName=ESCALATION_INDEX)
        else:
            condition, values = "escalated_to = :to", {":to": {"S": escalated_to}}
            if level is not None:
                condition += " AND begins_with(level_with_created_at, :prefix)"
                values[":prefix"] = {"S": f"{level.value}#"}
            items, last = self._read(
                reads,
                start,
                limit,
                IndexName=ESCALATION_INDEX,
                KeyConditionExpression=condition,
                ExpressionAttributeValues=values,
            )
        return [from_item(item) for item in items], last

    def recent(self, since: str, cursor: Any, limit: int, reads: Reads) -> tuple[list[DeviceLog], Any]:
        """Logs of every device created since `since`, newest first: all N shards queried in parallel."""

        def shard_stream(shard: int) -> Stream[dict[str, Any]]:
            def fetch(start: Key | None, n: int) -> tuple[Items, Key | None]:
                return self._read(
                    reads,
                    start,
                    n,
                    IndexName=SHARD_INDEX,
                    KeyConditionExpression="shard_id = :shard AND created_at >= :since",
                    ExpressionAttributeValues={":shard": {"N": str(shard)}, ":since": {"S": since}},
                )

            return Stream(str(shard), fetch)

        # Random shards hold about limit/N of the newest logs each; a short page reads on (merge.py).
        per_shard = -(-limit // self.shards) + 1
        streams = [shard_stream(shard) for shard in range(self.shards)]
        items, cursor = merge_page(streams, cursor, limit, per_shard, BY_TIME)
        return [from_item(item) for item in items], cursor

    def _read(
        self, reads: Reads, start: Key | None, limit: int, operation: str = "query", **request: Any
    ) -> tuple[Items, Key | None]:
        """One Query (newest first) or Scan that hides expired logs; its items and LastEvaluatedKey."""
        values = {**request.pop("ExpressionAttributeValues", {}), ":now": {"N": str(int(time.time()))}}
        request |= {"TableName": self.table_name, "Limit": limit, "FilterExpression": _LIVE}
        request |= {"ExpressionAttributeValues": values, "ReturnConsumedCapacity": "TOTAL"}
        if operation == "query":
            request["ScanIndexForward"] = False
        if start:
            request["ExclusiveStartKey"] = start
        response = self._call(operation, action="read device logs", **request)
        reads.add(response)
        return response.get("Items", []), response.get("LastEvaluatedKey")


def default_table() -> DeviceLogsTable:
    """The function's table, named by its environment (created once per execution environment)."""
    return DeviceLogsTable.from_environment()
