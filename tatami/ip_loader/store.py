"""The loader's writes to the ranges table: versions, manifests, batches, counts, the alias switch.

Key names and item shapes come from `tatami_functions.ip_lookup.keys` (the lookup function's own module);
the write expressions and the translation of `ClientError` live here. Batches retry unprocessed items and
throttling with exponential backoff and full jitter (sleep ~ U(0, min(cap, base * 2^attempt))).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from tatami.ip_loader.exceptions import StoreError, SupersededError
from tatami_functions.ip_lookup.keys import (
    ALIAS_PK,
    COUNTER_PK,
    MANIFEST_PREFIX,
    PK,
    SK,
    Pointer,
    singleton_key,
    version_of,
)
from tatami_functions.ip_lookup.repository import RangesRepository

BATCH = 25  # BatchWriteItem's limit
THROTTLED = {"ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded"}


@dataclass
class Backoff:
    """Exponential backoff with full jitter; `sleep` and `rng` are injectable for tests."""

    base: float = 0.05
    cap: float = 5.0
    attempts: int = 12
    sleep: Callable[[float], None] = time.sleep
    rng: random.Random = field(default_factory=random.Random)

    def wait(self, attempt: int, what: str) -> None:
        if attempt >= self.attempts:
            raise StoreError(f"{what}: still throttled after {attempt} retries; rerun the load to resume")
        self.sleep(self.rng.uniform(0, min(self.cap, self.base * 2**attempt)))


@dataclass(frozen=True)
class Manifest:
    """Progress of one load (keyed by the files' digest): its version and the chunks already written."""

    load_id: str
    version: int
    chunks: int
    done: frozenset[int]
    status: str  # "loading" until the alias switched to it, then "live"


class RangesStore:
    """Write access to the ranges table for the loader (one client, shared by its threads)."""

    def __init__(self, client: Any, table_name: str, backoff: Backoff | None = None) -> None:
        self.client, self.table_name = client, table_name
        self.backoff = backoff or Backoff()
        self.reader = RangesRepository(table_name, client)

    def pointer(self) -> Pointer | None:
        try:
            return self.reader.pointer()
        except Exception as exc:  # RangesUnavailableError, with the SDK's reason inside
            raise StoreError(f"table {self.table_name}: {exc}") from exc

    def next_version(self) -> int:
        reply = self._call(
            "update_item",
            Key=singleton_key(COUNTER_PK),
            UpdateExpression="ADD #last :one",
            ExpressionAttributeNames={"#last": "last"},
            ExpressionAttributeValues={":one": {"N": "1"}},
            ReturnValues="UPDATED_NEW",
        )
        return int(reply["Attributes"]["last"]["N"])

    def manifest(self, load_id: str) -> Manifest | None:
        reply = self._call("get_item", Key=singleton_key(MANIFEST_PREFIX + load_id), ConsistentRead=True)
        item = reply.get("Item")
        if not item:
            return None
        done = frozenset(int(n) for n in item.get("done", {}).get("NS", []))
        return Manifest(
            load_id, int(item["version"]["N"]), int(item["chunks"]["N"]), done, item["status"]["S"]
        )

    def start_manifest(self, load_id: str, version: int, chunks: int, sources: str) -> None:
        item = {
            **singleton_key(MANIFEST_PREFIX + load_id),
            "version": {"N": str(version)},
            "chunks": {"N": str(chunks)},
            "status": {"S": "loading"},
            "sources": {"S": sources},
            "started": {"S": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())},
        }
        self._call("put_item", Item=item)

    def mark_done(self, load_id: str, chunk: int) -> None:
        self._update_manifest(load_id, "ADD done :chunk", {":chunk": {"NS": [str(chunk)]}})

    def forget_progress(self, load_id: str) -> None:
        self._update_manifest(load_id, "REMOVE done", {})

    def mark_live(self, load_id: str) -> None:
        self._update_manifest(load_id, "SET #status = :live", {":live": {"S": "live"}}, {"#status": "status"})

    def _update_manifest(
        self, load_id: str, expression: str, values: dict[str, Any], names: dict[str, str] | None = None
    ) -> None:
        extra: dict[str, Any] = {"ExpressionAttributeValues": values} if values else {}
        if names:
            extra["ExpressionAttributeNames"] = names
        self._call(
            "update_item", Key=singleton_key(MANIFEST_PREFIX + load_id), UpdateExpression=expression, **extra
        )

    def write(self, requests: Sequence[dict[str, Any]]) -> float:
        """One BatchWriteItem of up to 25 put/delete requests, retried until every one landed; WCU."""
        pending, consumed, attempt = list(requests), 0.0, 0
        while pending:
            try:
                reply = self.client.batch_write_item(
                    RequestItems={self.table_name: pending}, ReturnConsumedCapacity="TOTAL"
                )
            except ClientError as exc:
                if exc.response.get("Error", {}).get("Code") not in THROTTLED:
                    raise StoreError(f"BatchWriteItem on {self.table_name}: {exc}") from exc
                self.backoff.wait(attempt, "BatchWriteItem")
                attempt += 1
                continue
            consumed += sum(float(c.get("CapacityUnits", 0)) for c in reply.get("ConsumedCapacity", []))
            unprocessed = reply.get("UnprocessedItems", {}).get(self.table_name, [])
            if unprocessed:
                self.backoff.wait(attempt, "BatchWriteItem (unprocessed items)")
                attempt = attempt + 1 if len(unprocessed) == len(pending) else 0  # progress resets the clock
            pending = unprocessed
        return consumed

    def count(self, pk: str) -> int:
        """Items in one partition (Select=COUNT, paginated)."""
        total, start = 0, None
        while True:
            extra: dict[str, Any] = {"ExclusiveStartKey": start} if start else {}
            reply = self._call(
                "query",
                KeyConditionExpression=f"{PK} = :pk",
                ExpressionAttributeValues={":pk": {"S": pk}},
                Select="COUNT",
                **extra,
            )
            total += int(reply["Count"])
            start = reply.get("LastEvaluatedKey")
            if not start:
                return total

    def switch(self, alias: dict[str, Any], version: int) -> None:
        """Point the alias at `version` unless a newer version is already live (one conditional write)."""
        try:
            self.client.put_item(
                TableName=self.table_name,
                Item={**singleton_key(ALIAS_PK), "version": {"N": str(version)}, **alias},
                ConditionExpression="attribute_not_exists(version) OR version < :version",
                ExpressionAttributeValues={":version": {"N": str(version)}},
            )
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException":
                live = self.pointer()
                raise SupersededError(
                    f"v{live.version if live else '?'} went live while v{version} loaded"
                ) from exc
            raise StoreError(f"switching the alias: {exc}") from exc

    def stale_keys(self, live: int, segment: int, segments: int) -> Iterator[dict[str, Any]]:
        """Keys of one scan segment that belong to versions older than `live` (items and manifests)."""
        start = None
        while True:
            extra: dict[str, Any] = {"ExclusiveStartKey": start} if start else {}
            reply = self._call(
                "scan",
                ProjectionExpression="#pk, #sk, version",
                ExpressionAttributeNames={"#pk": PK, "#sk": SK},
                Segment=segment,
                TotalSegments=segments,
                **extra,
            )
            for item in reply.get("Items", []):
                if _version_of_item(item) < live:
                    yield {PK: item[PK], SK: item[SK]}
            start = reply.get("LastEvaluatedKey")
            if not start:
                return

    def _call(self, operation: str, **kwargs: Any) -> Any:
        try:
            return getattr(self.client, operation)(TableName=self.table_name, **kwargs)
        except (ClientError, BotoCoreError) as exc:
            raise StoreError(f"{operation} on {self.table_name}: {exc}") from exc


def _version_of_item(item: dict[str, Any]) -> float:
    pk = item[PK]["S"]
    version = version_of(pk)
    if version is not None:
        return version
    if pk.startswith(MANIFEST_PREFIX) and "version" in item:
        return int(item["version"]["N"])
    return float("inf")  # the alias and the counter are never stale
