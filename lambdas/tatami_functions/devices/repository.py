"""The device_logs table (`table.DEVICE_LOGS`): logs as items, the writes, the four read paths; and
the archive bucket the TTL archiver writes to.

Reads ask for ReturnConsumedCapacity and count ScannedCount beside what they return, so a route can
show that a key condition, not a filter, did the work. The only filter hides logs past their TTL:
DynamoDB deletes expired items within days, not at once (the seed warns of it).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Self

from tatami_functions.common.attribute_values import deserialize, serialize
from tatami_functions.common.clients import STREAM_CALLS, ClientConfig
from tatami_functions.common.paging import ReadStats
from tatami_functions.common.repository import CONDITION_FAILED, Repository, TableRepository
from tatami_functions.devices.exceptions import (
    DeviceLogsUnavailableError,
    LogConflictError,
    LogNotFoundError,
)
from tatami_functions.devices.merge import Key, Order, Stream, merge_page
from tatami_functions.devices.schemas import DeviceLog, Level, sort_key
from tatami_functions.devices.settings import DEFAULT_SHARDS, ArchiveSettings, DeviceLogsSettings
from tatami_functions.devices.table import DEVICE_LOGS, ESCALATION_INDEX, OPERATOR_INDEX, SHARD_INDEX

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_s3 import S3Client

Window = tuple[str, str]  # canonical created_at bounds, both inclusive
Items = list[dict[str, Any]]
TABLE_KEY = DEVICE_LOGS.key_names
SHARD_INDEX_KEY = (*TABLE_KEY, *SHARD_INDEX.key_names)


@dataclass
class Reads:
    """What a request read, summed over its Queries (the merges run them in parallel threads).

    >>> reads = Reads()
    >>> reads.add({"ScannedCount": 3, "ConsumedCapacity": {"CapacityUnits": 0.5}})
    >>> reads.total
    ReadStats(items_read=3, queries=1, consumed_rcu=0.5)
    """

    total: ReadStats = field(default_factory=ReadStats)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add(self, response: Any) -> None:
        with self._lock:
            self.total += ReadStats.of(response)


def to_item(log: DeviceLog) -> dict[str, Any]:
    """The item of a log: its API attributes plus the composite sort key and the shard."""
    values = {**log.to_json(), "shard_id": log.shard_id, "level_with_created_at": log.sort_key}
    return {name: serialize(value) for name, value in values.items()}


def from_item(item: dict[str, Any]) -> DeviceLog:
    values = {name: deserialize(value) for name, value in item.items()}
    return DeviceLog(
        device_id=values["device_id"],
        level=Level(values["level"]),
        created_at=values["created_at"],
        message=values["message"],
        expires_at=int(values["expires_at"]),
        shard_id=int(values["shard_id"]),
        operator=values.get("operator"),
        escalated_to=values.get("escalated_to"),
    )


def key_of(item: dict[str, Any], names: tuple[str, ...] = TABLE_KEY) -> Key:
    return {name: item[name] for name in names}


# Merges compare created_at only, so the order inside one stream (DynamoDB's) is never contradicted.
BY_TIME = Order[dict[str, Any]](
    of_item=lambda item: item["created_at"]["S"],
    key_of=lambda item: key_of(item, SHARD_INDEX_KEY),
    of_key=lambda key: key["created_at"]["S"],
)
BY_LEVEL_THEN_TIME = Order[dict[str, Any]](
    of_item=lambda item: item["created_at"]["S"],
    key_of=key_of,
    of_key=lambda key: key["level_with_created_at"]["S"].split("#", 1)[1],
)


def update_expression(changes: dict[str, str | None]) -> dict[str, Any]:
    """UpdateItem arguments that set the given attributes and remove those given as None.

    >>> update_expression({"operator": "MAX", "escalated_to": None})["UpdateExpression"]
    'SET #operator = :operator REMOVE #escalated_to'
    """
    sets = [f"#{name} = :{name}" for name, value in changes.items() if value is not None]
    removes = [f"#{name}" for name, value in changes.items() if value is None]
    clauses = [f"SET {', '.join(sets)}" if sets else "", f"REMOVE {', '.join(removes)}" if removes else ""]
    arguments: dict[str, Any] = {
        "UpdateExpression": " ".join(clause for clause in clauses if clause),
        "ExpressionAttributeNames": {f"#{name}": name for name in changes},
    }
    if sets:
        arguments["ExpressionAttributeValues"] = {
            f":{name}": {"S": value} for name, value in changes.items() if value is not None
        }
    return arguments


_DEVICE_LEVEL_WINDOW = "device_id = :device AND level_with_created_at BETWEEN :low AND :high"
_LIVE = "attribute_not_exists(expires_at) OR expires_at > :now"


class DeviceLogsRepository(TableRepository):
    """The seed's `device_logs` table and its three GSIs.

    For example (not run as a doctest)::

        logs = DeviceLogsRepository("Tatami-DeviceLogs", client=boto3.client("dynamodb"))
        logs.device_logs("12345", [Level.WARNING], (EARLIEST, LATEST), None, 25, Reads())
        # -> ([DeviceLog(device_id='12345', level=<Level.WARNING: 'WARNING'>, ...)], None)
    """

    noun, unavailable, settings = "device logs", DeviceLogsUnavailableError, DeviceLogsSettings

    def __init__(self, table_name: str, shards: int = DEFAULT_SHARDS, client: DynamoDBClient | None = None):
        super().__init__(table_name, client)
        self.shards = shards

    @classmethod
    def _from_env(cls) -> Self:
        settings = DeviceLogsSettings.from_env()
        return cls(settings.table, settings.shards)

    def put_log(self, log: DeviceLog) -> None:
        """Store a log; a retry of the same log succeeds, a different one on its key is a conflict."""
        self._write(
            "put_item",
            LogConflictError(
                f"created_at: device {log.device_id} already has a different {log.sort_key} log"
            ),
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
        """The logs an operator handled in the window, newest first (the seed's operator index)."""
        items, last = self._read(
            reads,
            start,
            limit,
            IndexName=OPERATOR_INDEX.name,
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
            items, last = self._read(reads, start, limit, operation="scan", IndexName=ESCALATION_INDEX.name)
        else:
            condition, values = "escalated_to = :to", {":to": {"S": escalated_to}}
            if level is not None:
                condition += " AND begins_with(level_with_created_at, :prefix)"
                values[":prefix"] = {"S": f"{level.value}#"}
            items, last = self._read(
                reads,
                start,
                limit,
                IndexName=ESCALATION_INDEX.name,
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
                    IndexName=SHARD_INDEX.name,
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


class ArchiveRepository(Repository["S3Client"]):
    """The bucket device logs deleted by TTL are archived to (one gzipped JSON-lines object a batch)."""

    service: ClassVar[str] = "s3"
    client_config: ClassVar[ClientConfig | None] = STREAM_CALLS  # a stream consumer has minutes
    noun, unavailable = "the device log archive", DeviceLogsUnavailableError

    def __init__(self, bucket: str, client: S3Client | None = None) -> None:
        super().__init__(client)
        self.bucket = bucket

    @classmethod
    def _from_env(cls) -> Self:
        return cls(ArchiveSettings.from_env().bucket)

    def write_object(self, key: str, body: bytes) -> None:
        """Write one archive object (gzipped JSON lines); a retried batch rewrites the same key."""
        self._call(
            "put_object",
            action=f"write {key}",
            Bucket=self.bucket,
            Key=key,
            Body=body,
            ContentType="application/x-ndjson",
        )


def repository() -> DeviceLogsRepository:
    """The API function's table, named by its environment (made once per execution environment)."""
    return DeviceLogsRepository.from_environment()


def archive_repository() -> ArchiveRepository:
    """The archiver's bucket, named by its environment (made once per execution environment)."""
    return ArchiveRepository.from_environment()
