"""The counters service's AWS calls: its three tables (`table.py`) on one client.

`CountersRepository` stores counter configurations and roll-up items (the counters table), adds to
and sums shards (the shards table) and commits keyed increments with their records (the idempotency
table). Every SDK error leaves it as a `CounterUnavailableError` (503 with `Retry-After`). The three
tables share the repository's one client (`API_CALLS`: a read fans out up to 10 BatchGetItem calls
at once, each on a connection of its pool). A function
is told only the tables it may use (least privilege); using another names its unset variable.

A keyed increment is one `TransactWriteItems`: the shard's `ADD` and a put of the key's record on
condition that no live record holds the key. Both land or neither does, so a crash at any instant
leaves either nothing (a retry applies the increment) or both (a retry finds the record and replays
its answer): no instant leaves an applied increment whose key a retry could apply again. The
`ClientRequestToken` makes the SDK's own retries of that call (a timeout after DynamoDB committed)
idempotent too, for the 10 minutes DynamoDB keeps tokens; past them, the key's condition holds.

Roll-up items hold, per shard n, an attribute `s<n>` = [version, count, approximate time]; a write
only replaces entries whose stored version is older, so redelivered or reordered records change
nothing.
"""

from __future__ import annotations

import json
import re
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any, Self, cast

from botocore.exceptions import ClientError

from tatami_functions.common.batch import GET_BATCH, get_all
from tatami_functions.common.repository import (
    CONDITION_FAILED,
    TRANSACTION_CANCELED,
    Repository,
    TableRepository,
)
from tatami_functions.counters.exceptions import (
    CounterUnavailableError,
    IncrementConflictError,
    RollupWriteError,
)
from tatami_functions.counters.idempotency import IncrementRecord
from tatami_functions.counters.rollup import ShardState
from tatami_functions.counters.settings import CountersSettings, settings
from tatami_functions.counters.sharding import CounterConfig, shard_key
from tatami_functions.counters.table import COUNT, COUNTERS, IDEMPOTENCY, SHARDS, VERSION

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

__all__ = ["CountersRepository", "parse_rollup", "repository"]

SHARD_KEY = SHARDS.partition_key.name
NAME, ITEM = COUNTERS.key_names
RECORD_ID = IDEMPOTENCY.partition_key.name
CONFIG, ROLLUP = "config", "rollup"  # the two items of a counter's partition in the counters table
_SHARD_ATTRIBUTE = re.compile(r"^s(\d+)$")
_ENTRIES_PER_WRITE = 50  # keeps each update and condition expression well under the 4 KB limit
_ROLLUP_ATTEMPTS = 4
# A record a new increment may take over: none, expired (TTL deletes within days, not at once), or a
# legacy in-progress record whose own expiry passed (as Powertools Idempotency let it be taken).
_FREE = f"attribute_not_exists({RECORD_ID}) OR expiration < :now OR in_progress_expiration < :now_ms"


class _ConditionFailed(Exception):
    """A conditional write lost; its cause is the ClientError (with the item, when asked for)."""

    def old_item(self) -> dict[str, Any]:
        return cast(dict[str, Any], cast(ClientError, self.__cause__).response.get("Item", {}))


class _Cancelled(Exception):
    """The transaction was cancelled; its cause is the ClientError with the reasons, item by item."""

    def reasons(self) -> list[dict[str, Any]]:
        return cast(list[dict[str, Any]], cast(ClientError, self.__cause__).response["CancellationReasons"])


class _ShardsTable(TableRepository):
    """The shards table on the repository's client, as `common.batch.get_all` reads it."""

    noun, unavailable = "counter shards", CounterUnavailableError


@cache
def _pool() -> ThreadPoolExecutor:
    # At most MAX_SHARDS / 100 = 10 calls per read; the pool lives as long as the environment.
    return ThreadPoolExecutor(max_workers=10, thread_name_prefix="shards")


class CountersRepository(Repository["DynamoDBClient"]):
    """The counters' three tables; `settings` names those this function may use.

    For example (not run as a doctest)::

        repository().get_config("votes-A")
        # -> CounterConfig(name='votes-A', shards=150, target_wcu=100000, safety_factor=1.5)
    """

    noun, unavailable = "counters", CounterUnavailableError

    def __init__(self, settings: CountersSettings, client: DynamoDBClient | None = None) -> None:
        super().__init__(client)
        self.settings = settings

    @classmethod
    def _from_env(cls) -> Self:
        return cls(settings())  # its client: API_CALLS, a connection for each of a read's parallel calls

    @cached_property
    def _counters(self) -> str:
        return cast(str, self.settings.require("counters_table"))

    @cached_property
    def _shards(self) -> _ShardsTable:
        return _ShardsTable(self.settings.require("shards_table"), self.client)

    @cached_property
    def _records(self) -> str:
        return cast(str, self.settings.require("idempotency_table"))

    # Configurations: the writer creates and grows them, every function reads them.

    def get_config(self, name: str, consistent: bool = False) -> CounterConfig | None:
        """The stored configuration of `name`, or None when there is no such counter."""
        item = self._call(
            "get_item", TableName=self._counters, Key=_key(name, CONFIG), ConsistentRead=consistent
        )
        return _config(item["Item"]) if "Item" in item else None

    def create_config(self, config: CounterConfig) -> CounterConfig | None:
        """Store a new counter; None when created, else the configuration that already exists."""
        try:
            self._call(
                "put_item",
                errors={CONDITION_FAILED: _ConditionFailed()},
                TableName=self._counters,
                Item={**_key(config.name, CONFIG), **_config_attributes(config, created=True)},
                ConditionExpression="attribute_not_exists(#n)",
                ExpressionAttributeNames={"#n": NAME},
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        except _ConditionFailed as exists:
            old = exists.old_item()
            return _config(old) if old else self.get_config(config.name, True)
        return None

    def grow_config(self, config: CounterConfig, current_shards: int) -> bool:
        """Raise the shard count from `current_shards`; False when another writer changed it first."""
        values = _config_attributes(config, created=False)
        try:
            self._call(
                "update_item",
                errors={CONDITION_FAILED: _ConditionFailed()},
                TableName=self._counters,
                Key=_key(config.name, CONFIG),
                UpdateExpression="SET shards = :shards, target_wcu = :target_wcu, "
                "safety_factor = :safety_factor, updated_at = :updated_at",
                ConditionExpression="shards = :current",
                ExpressionAttributeValues={
                    **{f":{name}": value for name, value in values.items()},
                    ":current": {"N": str(current_shards)},
                },
            )
        except _ConditionFailed:
            return False
        return True

    # Roll-up items: the roll-up writes them, the reader reads them with the configuration.

    def read_rollup(
        self, name: str, consistent: bool = False
    ) -> tuple[CounterConfig | None, dict[int, ShardState]]:
        """The configuration and the roll-up entries of `name` in one Query (both share its partition)."""
        response = self._call(
            "query",
            TableName=self._counters,
            KeyConditionExpression="#n = :name",
            ExpressionAttributeNames={"#n": NAME},
            ExpressionAttributeValues={":name": {"S": name}},
            ConsistentRead=consistent,
        )
        items = {item[ITEM]["S"]: item for item in response["Items"]}
        config = _config(items[CONFIG]) if CONFIG in items else None
        return config, parse_rollup(items.get(ROLLUP, {}))

    def save_rollup(self, name: str, states: dict[int, ShardState]) -> None:
        """Apply the newest known state of some shards to the roll-up item of `name`, idempotently.

        Entries whose stored version is as new or newer are left alone (a redelivered batch, or a
        record older than one already applied). RollupWriteError when DynamoDB rejects the write.
        """
        ordered = sorted(states.items())
        for start in range(0, len(ordered), _ENTRIES_PER_WRITE):
            self._save_entries(name, dict(ordered[start : start + _ENTRIES_PER_WRITE]))

    def _save_entries(self, name: str, entries: dict[int, ShardState]) -> None:
        for _ in range(_ROLLUP_ATTEMPTS):
            if not entries:
                return
            try:
                self._call(
                    "update_item",
                    errors={CONDITION_FAILED: _ConditionFailed()},
                    TableName=self._counters,
                    Key=_key(name, ROLLUP),
                    **_rollup_update(entries),
                )
                return
            except CounterUnavailableError as exc:  # the stream function reports its records as failed
                raise RollupWriteError(name, str(exc)) from exc
            except _ConditionFailed as stale:
                # Some entries are already as new: keep only those still behind and write again.
                stored = parse_rollup(stale.old_item())
                entries = {
                    n: s for n, s in entries.items() if n not in stored or stored[n].version < s.version
                }
        raise RollupWriteError(name, f"version conditions kept failing for shards {sorted(entries)}")

    # Shards: the writer adds to them, the reader sums them.

    def add_to_shard(self, name: str, shard: int, by: int) -> float:
        """Add `by` to shard `shard` of counter `name` (creates the shard item on its first write).

        Returns the write units consumed (a shard item is under 1 KB: 1 WCU).
        """
        update = self._shard_update(name, shard, by)
        response = self._call(
            "update_item", action="add to a counter shard", **update, ReturnConsumedCapacity="TOTAL"
        )
        return float(response.get("ConsumedCapacity", {}).get("CapacityUnits", 0.0))

    def sum_shards(self, name: str, shards: int, consistent: bool = False) -> int:
        """The sum of shards 0..shards-1, read with BatchGetItem calls of 100 keys run in parallel
        (`common.batch.get_all` each). A shard never written has no item and counts 0."""
        keys = [{SHARD_KEY: {"S": shard_key(name, n)}} for n in range(shards)]
        chunks = [keys[i : i + GET_BATCH] for i in range(0, len(keys), GET_BATCH)]
        table = self._shards  # made here, before the threads share it

        def total(chunk: list[dict[str, Any]]) -> int:
            items = get_all(
                table,
                chunk,
                ProjectionExpression="#c",
                ExpressionAttributeNames={"#c": COUNT},
                ConsistentRead=consistent,
            )
            return sum(int(item[COUNT]["N"]) for item in items if COUNT in item)

        return total(chunks[0]) if len(chunks) == 1 else sum(_pool().map(total, chunks))

    def _shard_update(self, name: str, shard: int, by: int) -> dict[str, Any]:
        """The update that adds `by` to a shard's count and one to its version (an UpdateItem's, or a
        transaction's): the stream's new image then orders the shard's states."""
        return {
            "TableName": self._shards.table_name,
            "Key": {SHARD_KEY: {"S": shard_key(name, shard)}},
            "UpdateExpression": "ADD #c :by, #v :one",
            "ExpressionAttributeNames": {"#c": COUNT, "#v": VERSION},
            "ExpressionAttributeValues": {":by": {"N": str(by)}, ":one": {"N": "1"}},
        }

    # Keyed increments: the shard's ADD and the key's record, in one transaction.

    def commit_increment(
        self, name: str, shard: int, by: int, record: IncrementRecord, now: float
    ) -> IncrementRecord | None:
        """Add `by` to the shard and store `record` in one transaction: None when both committed, the
        record holding the key when it was already used (nothing applied).

        IncrementConflictError when another transaction held the shard or the record (retry);
        CounterUnavailableError for any other failure (throttling, unreachable, timeout).
        """
        put = {
            "TableName": self._records,
            "Item": _record_item(record),
            "ConditionExpression": _FREE,
            "ExpressionAttributeValues": {
                ":now": {"N": str(int(now))},
                ":now_ms": {"N": str(int(now * 1000))},
            },
            "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
        }
        try:
            self._call(
                "transact_write_items",
                errors={TRANSACTION_CANCELED: _Cancelled()},
                action="commit an increment with its key",
                TransactItems=[{"Update": self._shard_update(name, shard, by)}, {"Put": put}],
                ClientRequestToken=str(uuid.uuid4()),  # the SDK resends this one call with the same token
            )
        except _Cancelled as cancelled:
            return self._cancelled(cancelled.reasons(), record.id)
        return None

    def _cancelled(self, reasons: list[dict[str, Any]], record_id: str) -> IncrementRecord:
        codes = [reason.get("Code", "None") for reason in reasons]
        if codes[-1] == "ConditionalCheckFailed":
            old = reasons[-1].get("Item")
            return _record(old) if old else self._read_record(record_id)
        if "TransactionConflict" in codes:
            raise IncrementConflictError(on_key=codes[-1] == "TransactionConflict")
        reasons_text = ", ".join(codes)
        raise CounterUnavailableError(f"cannot commit an increment with its key: cancelled ({reasons_text})")

    def _read_record(self, record_id: str) -> IncrementRecord:
        """The record of `record_id` (strongly consistent: it was just found to exist)."""
        response = self._call(
            "get_item",
            action="read an increment record",
            TableName=self._records,
            Key={RECORD_ID: {"S": record_id}},
            ConsistentRead=True,
        )
        if "Item" not in response:  # expired and swept between the two calls: the caller retries
            raise IncrementConflictError(on_key=True)
        return _record(response["Item"])


def repository() -> CountersRepository:
    """The function's repository (one per execution environment)."""
    return CountersRepository.from_environment()


def _key(name: str, item: str) -> dict[str, Any]:
    return {NAME: {"S": name}, ITEM: {"S": item}}


def _config(item: dict[str, Any]) -> CounterConfig:
    return CounterConfig(
        name=item[NAME]["S"],
        shards=int(item["shards"]["N"]),
        target_wcu=int(item["target_wcu"]["N"]),
        safety_factor=float(item["safety_factor"]["N"]),
    )


def _config_attributes(config: CounterConfig, created: bool) -> dict[str, Any]:
    now = {"S": datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")}
    return {
        "shards": {"N": str(config.shards)},
        "target_wcu": {"N": str(config.target_wcu)},
        "safety_factor": {"N": str(config.safety_factor)},
        ("created_at" if created else "updated_at"): now,
    }


def parse_rollup(item: dict[str, Any]) -> dict[int, ShardState]:
    """The shard entries of a roll-up item (low-level attribute values).

    >>> parse_rollup({"s3": {"L": [{"N": "2"}, {"N": "7"}, {"N": "1700000000"}]}})
    {3: ShardState(version=2, count=7, at=1700000000)}
    """
    entries = {}
    for attribute, value in item.items():
        match = _SHARD_ATTRIBUTE.match(attribute)
        if match and "L" in value:
            version, count, at = (int(element["N"]) for element in value["L"])
            entries[int(match.group(1))] = ShardState(version, count, at)
    return entries


def _rollup_update(entries: dict[int, ShardState]) -> dict[str, Any]:
    names: dict[str, str] = {}
    values: dict[str, Any] = {}
    sets: list[str] = []
    conditions: list[str] = []
    for i, (shard, state) in enumerate(entries.items()):
        names[f"#s{i}"] = f"s{shard}"
        values[f":l{i}"] = {"L": [{"N": str(state.version)}, {"N": str(state.count)}, {"N": str(state.at)}]}
        values[f":v{i}"] = {"N": str(state.version)}
        sets.append(f"#s{i} = :l{i}")
        conditions.append(f"(attribute_not_exists(#s{i}) OR #s{i}[0] < :v{i})")
    return {
        "UpdateExpression": "SET " + ", ".join(sets),
        "ConditionExpression": " AND ".join(conditions),
        "ExpressionAttributeNames": names,
        "ExpressionAttributeValues": values,
        "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
    }


def _record_item(record: IncrementRecord) -> dict[str, Any]:
    return {
        RECORD_ID: {"S": record.id},
        "status": {"S": record.status},
        "data": {"S": json.dumps(record.response, sort_keys=True)},
        "validation": {"S": record.validation},
        "expiration": {"N": str(record.expiration)},
    }


def _record(item: dict[str, Any]) -> IncrementRecord:
    return IncrementRecord(
        id=item[RECORD_ID]["S"],
        response=json.loads(item["data"]["S"]) if "data" in item else {},
        validation=item.get("validation", {}).get("S", ""),
        expiration=int(item["expiration"]["N"]),
        status=item.get("status", {}).get("S", "COMPLETED"),
    )
