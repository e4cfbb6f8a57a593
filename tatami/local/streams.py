"""DynamoDB stream event-source mappings, run as Lambda's poller runs them.

Per mapping, one thread reads every shard of the table's stream in order (a child shard only after
its parent is drained), drops records the FilterCriteria reject, batches up to `BatchSize` (waiting
up to `MaximumBatchingWindowInSeconds`), and invokes the function with the event Lambda builds.

Failures, as AWS documents them: a function error retries the batch; with
`BisectBatchOnFunctionError` the batch is split in two before each retry (a split is not counted as
a retry, so a single bad record ends up alone); with `ReportBatchItemFailures` a partial response
checkpoints before the lowest failed sequence number and retries from there (an empty or unknown
`itemIdentifier` counts as a complete failure). After `MaximumRetryAttempts` retries, or once a
record is older than `MaximumRecordAgeInSeconds`, the batch is discarded and its metadata sent to
the on-failure queue, and the shard moves on.
"""

from __future__ import annotations

import base64
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from tatami.local.assembly import StreamMappingSpec
from tatami.local.filters import matches_any
from tatami.local.functions import Invocation
from tatami.local.intrinsics import LOCAL_ACCOUNT, LOCAL_REGION
from tatami.local.ttl import TtlRemovals

TTL_IDENTITY = {"type": "Service", "principalId": "dynamodb.amazonaws.com"}
Invoke = Callable[[dict[str, Any]], Invocation]
Discard = Callable[[dict[str, Any]], None]


def lambda_record(raw: dict[str, Any], event_source_arn: str) -> dict[str, Any]:
    """A GetRecords record (as boto3 parses it) in the shape Lambda hands a handler."""
    record = dict(raw)
    stream = dict(raw["dynamodb"])
    created = stream.get("ApproximateCreationDateTime")
    if isinstance(created, datetime):
        stream["ApproximateCreationDateTime"] = int(created.timestamp())
    for image in ("Keys", "NewImage", "OldImage"):
        if image in stream:
            stream[image] = {name: _attribute(value) for name, value in stream[image].items()}
    record["dynamodb"] = stream
    record["awsRegion"] = LOCAL_REGION
    record["eventSourceARN"] = event_source_arn
    if record.get("eventName") not in ("INSERT", "MODIFY", "REMOVE"):
        # DynamoDB Local reports a TTL deletion as UNKNOWN_TO_SDK_VERSION without userIdentity;
        # AWS sends REMOVE with the DynamoDB service as the identity.
        record["eventName"] = "REMOVE"
        record["userIdentity"] = dict(TTL_IDENTITY)
    return record


def aws_stream_arn(local_arn: str) -> str:
    """DynamoDB Local's stream ARN with the region and account the rest of the local cloud uses."""
    parts = local_arn.split(":", 5)
    parts[3], parts[4] = LOCAL_REGION, LOCAL_ACCOUNT
    return ":".join(parts)


def _attribute(value: dict[str, Any]) -> dict[str, Any]:
    ((kind, inner),) = value.items()
    if kind == "B":
        return {"B": base64.b64encode(inner).decode()}
    if kind == "BS":
        return {"BS": [base64.b64encode(item).decode() for item in inner]}
    if kind == "M":
        return {"M": {name: _attribute(item) for name, item in inner.items()}}
    if kind == "L":
        return {"L": [_attribute(item) for item in inner]}
    return {kind: inner}


@dataclass
class MappingStats:
    invocations: int = 0
    records_delivered: int = 0
    records_filtered: int = 0
    records_discarded: int = 0


@dataclass
class _Shard:
    shard_id: str
    parent_id: str | None
    iterator: str | None = None
    last_sequence: str | None = None  # of the newest record read, to re-open an invalidated iterator
    buffer: list[dict[str, Any]] = field(default_factory=list)
    first_buffered_at: float = 0.0
    closed: bool = False


class BatchDelivery:
    """Delivers one batch with retries, bisection and partial failures; discards what exhausts them."""

    def __init__(
        self,
        spec: StreamMappingSpec,
        function_arn: str,
        invoke: Invoke,
        discard: Discard,
        stats: MappingStats,
        log: Callable[[str], None],
    ) -> None:
        self.spec = spec
        self.function_arn = function_arn
        self.invoke = invoke
        self.discard = discard
        self.stats = stats
        self.log = log

    def deliver(self, shard_id: str, records: list[dict[str, Any]]) -> None:
        pending: list[tuple[list[dict[str, Any]], int]] = [(records, 0)]
        while pending:
            batch, retries = pending.pop(0)
            batch = self._drop_expired(shard_id, batch)
            if not batch:
                continue
            outcome = self._invoke(batch)
            if outcome is None:
                continue
            function_error, failed_at = outcome
            rest = batch[failed_at:]
            if self.spec.max_retries >= 0 and retries >= self.spec.max_retries:
                self._discard(shard_id, rest, "RetryAttemptsExhausted", retries + 1)
                continue
            time.sleep(min(1.0, 0.05 * 2**retries))
            if function_error and self.spec.bisect_on_error and len(rest) > 1:
                half = len(rest) // 2
                pending[:0] = [(rest[:half], 0), (rest[half:], 0)]
            else:
                pending.insert(0, (rest, retries + 1))

    def _invoke(self, batch: list[dict[str, Any]]) -> tuple[bool, int] | None:
        """None when the whole batch succeeded, else (function error?, index to retry from)."""
        self.stats.invocations += 1
        invocation = self.invoke({"Records": batch})
        if not invocation.ok:
            self.log(
                f"stream batch of {len(batch)} failed: {invocation.error.get('errorType')}: "
                f"{invocation.error.get('errorMessage')}"
            )
            return True, 0
        failures = (
            (invocation.result or {}).get("batchItemFailures")
            if self.spec.report_batch_item_failures
            else None
        )
        if not failures:
            self.stats.records_delivered += len(batch)
            return None
        sequence_numbers = [r["dynamodb"]["SequenceNumber"] for r in batch]
        identifiers = [f.get("itemIdentifier") if isinstance(f, dict) else None for f in failures]
        if any(i not in sequence_numbers for i in identifiers):
            return True, 0  # AWS treats an empty or unknown itemIdentifier as a complete failure
        failed_at = min(sequence_numbers.index(i) for i in identifiers)
        self.stats.records_delivered += failed_at
        return False, failed_at

    def _drop_expired(self, shard_id: str, batch: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if self.spec.max_record_age_seconds < 0:
            return batch
        oldest_allowed = time.time() - self.spec.max_record_age_seconds
        expired = [r for r in batch if r["dynamodb"]["ApproximateCreationDateTime"] < oldest_allowed]
        if expired:
            self._discard(shard_id, expired, "RecordAgeExceeded", 0)
        return batch[len(expired) :]

    def _discard(self, shard_id: str, batch: list[dict[str, Any]], condition: str, invokes: int) -> None:
        self.stats.records_discarded += len(batch)
        first, last = batch[0]["dynamodb"], batch[-1]["dynamodb"]
        self.log(
            f"discarding {len(batch)} stream records ({condition}), sequence numbers "
            f"{first['SequenceNumber']}..{last['SequenceNumber']}"
        )
        self.discard(
            {
                "requestContext": {
                    "condition": condition,
                    "approximateInvokeCount": invokes,
                    "functionArn": self.function_arn,
                },
                "responseContext": {
                    "statusCode": 200,
                    "executedVersion": "$LATEST",
                    "functionError": "Unhandled",
                },
                "version": "1.0",
                "timestamp": datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
                "DDBStreamBatchInfo": {
                    "shardId": shard_id,
                    "startSequenceNumber": first["SequenceNumber"],
                    "endSequenceNumber": last["SequenceNumber"],
                    "approximateArrivalOfFirstRecord": _iso(first["ApproximateCreationDateTime"]),
                    "approximateArrivalOfLastRecord": _iso(last["ApproximateCreationDateTime"]),
                    "batchSize": len(batch),
                    "streamArn": batch[0]["eventSourceARN"],
                },
            }
        )


def _iso(epoch_seconds: float) -> str:
    return (
        datetime.fromtimestamp(epoch_seconds, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    )


class StreamPoller:
    """Polls one table's stream for one event-source mapping, in a background thread."""

    def __init__(
        self,
        spec: StreamMappingSpec,
        streams_client: Any,
        stream_arn: str,
        delivery: BatchDelivery,
        poll_interval: float = 0.1,
        ttl: TtlRemovals | None = None,
    ) -> None:
        self.spec = spec
        self.ttl = ttl
        self.client = streams_client
        self.stream_arn = stream_arn
        self.event_source_arn = aws_stream_arn(stream_arn)
        self.delivery = delivery
        self.poll_interval = poll_interval
        self.shards: dict[str, _Shard] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"stream-{spec.logical_id}", daemon=True)

    def start(self) -> None:
        self._refresh_shards(self.spec.starting_position)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def _run(self) -> None:
        last_refresh = time.monotonic()
        while not self._stop.is_set():
            try:
                busy = any([self._poll(shard) for shard in self._eligible()])
                if time.monotonic() - last_refresh > 5 or any(
                    s.closed and s.iterator is None and not s.buffer for s in self.shards.values()
                ):
                    self._refresh_shards("TRIM_HORIZON")
                    last_refresh = time.monotonic()
            except Exception as exc:  # noqa: BLE001 - keep polling; the log says why it paused
                self.delivery.log(f"stream poller {self.spec.logical_id}: {type(exc).__name__}: {exc}")
                busy = False
                self._stop.wait(1.0)
            if not busy:
                self._stop.wait(self.poll_interval)

    def _eligible(self) -> list[_Shard]:
        drained = {
            s.shard_id for s in self.shards.values() if s.closed and s.iterator is None and not s.buffer
        }
        return [
            s
            for s in self.shards.values()
            if s.shard_id not in drained
            and (s.parent_id is None or s.parent_id in drained or s.parent_id not in self.shards)
        ]

    def _poll(self, shard: _Shard) -> bool:
        if shard.iterator is not None and len(shard.buffer) < self.spec.batch_size:
            response = self._get_records(shard)
            shard.iterator = response.get("NextShardIterator")
            shard.closed = shard.iterator is None
            self._buffer(shard, response.get("Records", []))
        window = self.spec.batching_window_seconds
        full = len(shard.buffer) >= self.spec.batch_size
        waited = time.monotonic() - shard.first_buffered_at >= window
        if shard.buffer and (full or waited or shard.closed):
            batch, shard.buffer = shard.buffer[: self.spec.batch_size], shard.buffer[self.spec.batch_size :]
            shard.first_buffered_at = time.monotonic()
            self.delivery.deliver(shard.shard_id, batch)
            return True
        return False

    def _get_records(self, shard: _Shard) -> dict[str, Any]:
        """GetRecords; an iterator DynamoDB Local invalidated (seen on long-idle, empty shards) is
        re-opened after the last record read, so nothing is skipped or read twice."""
        try:
            response: dict[str, Any] = self.client.get_records(ShardIterator=shard.iterator, Limit=1000)
        except (
            self.client.exceptions.TrimmedDataAccessException,
            self.client.exceptions.ExpiredIteratorException,
        ):
            position = {"ShardIteratorType": "TRIM_HORIZON"}
            if shard.last_sequence:
                position = {
                    "ShardIteratorType": "AFTER_SEQUENCE_NUMBER",
                    "SequenceNumber": shard.last_sequence,
                }
            shard.iterator = self.client.get_shard_iterator(
                StreamArn=self.stream_arn, ShardId=shard.shard_id, **position
            )["ShardIterator"]
            response = self.client.get_records(ShardIterator=shard.iterator, Limit=1000)
        if response.get("Records"):
            shard.last_sequence = response["Records"][-1]["dynamodb"]["SequenceNumber"]
        return response

    def _buffer(self, shard: _Shard, raw_records: list[dict[str, Any]]) -> None:
        for raw in raw_records:
            record = lambda_record(raw, self.event_source_arn)
            if self.ttl and "userIdentity" not in record and self.ttl.is_ttl_removal(record):
                record["userIdentity"] = dict(TTL_IDENTITY)  # the local cloud's TTL sweeper deleted it
            if not matches_any(record, self.spec.filter_patterns):
                self.delivery.stats.records_filtered += 1
                continue
            if not shard.buffer:
                shard.first_buffered_at = time.monotonic()
            shard.buffer.append(record)

    def _refresh_shards(self, position: str) -> None:
        description = self.client.describe_stream(StreamArn=self.stream_arn)["StreamDescription"]
        for shard in description.get("Shards", []):
            shard_id = shard["ShardId"]
            if shard_id in self.shards:
                continue
            iterator = self.client.get_shard_iterator(
                StreamArn=self.stream_arn, ShardId=shard_id, ShardIteratorType=position
            )["ShardIterator"]
            self.shards[shard_id] = _Shard(shard_id, shard.get("ParentShardId"), iterator=iterator)
