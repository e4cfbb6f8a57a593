"""DynamoDB stream event-source mappings, run as Lambda's poller runs them.

Per mapping, one thread reads every shard of the table's stream in order (a child shard only after
its parent is drained), drops records the FilterCriteria reject, batches up to `BatchSize` (waiting
up to `MaximumBatchingWindowInSeconds`) and hands each batch to `delivery.BatchDelivery`. A record's
time is put on the local cloud's clock when it is read (the delivery's clock). `hold()` stops the
deliveries (records are still read, up to a batch): a consumer stalled, for the alarms' tests.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

from tatami.local.engines.ttl import TtlRemovals
from tatami.local.events.delivery import BatchDelivery
from tatami.local.events.filters import matches_any
from tatami.local.events.stream_records import TTL_IDENTITY, aws_stream_arn, lambda_record
from tatami.local.template.assembly import StreamMappingSpec

# Lambda polls each shard of a DynamoDB stream four times a second: the slowest an idle poller gets.
IDLE_POLL_SECONDS = 0.25


@dataclass
class _Shard:
    shard_id: str
    parent_id: str | None
    iterator: str | None = None
    last_sequence: str | None = None  # of the newest record read, to re-open an invalidated iterator
    buffer: list[dict[str, Any]] = field(default_factory=list)
    first_buffered_at: float = 0.0
    closed: bool = False


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
        self._held = threading.Event()
        self._delivering = False
        self._thread = threading.Thread(target=self._run, name=f"stream-{spec.logical_id}", daemon=True)

    def start(self) -> None:
        self._refresh_shards(self.spec.starting_position)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def hold(self) -> None:
        """Deliver nothing until `release()`, as a consumer that stalled would take nothing."""
        self._held.set()

    def release(self) -> None:
        self._held.clear()

    @property
    def held(self) -> bool:
        return self._held.is_set()

    def idle(self) -> bool:
        """Nothing buffered, unread or being delivered: what a test waits for before it moves the
        clock ahead (a record waiting out its batching window then would age with the clock)."""
        started = self.delivery.stats.invocations
        quiet = not self._delivering and self.backlog() == 0
        return quiet and not self._delivering and self.delivery.stats.invocations == started

    def backlog(self) -> int:
        """Records this mapping has not delivered yet: those buffered, and those the stream holds after
        the last one read (counted on demand, with iterators of their own: the poller is untouched)."""
        pending = 0
        for shard in list(self.shards.values()):
            pending += len(shard.buffer)
            if shard.closed and shard.iterator is None:
                continue
            position: dict[str, str] = {"ShardIteratorType": "TRIM_HORIZON"}
            if shard.last_sequence:
                position = {
                    "ShardIteratorType": "AFTER_SEQUENCE_NUMBER",
                    "SequenceNumber": shard.last_sequence,
                }
            iterator = self.client.get_shard_iterator(
                StreamArn=self.stream_arn, ShardId=shard.shard_id, **position
            )["ShardIterator"]
            while iterator:
                records = (response := self.client.get_records(ShardIterator=iterator, Limit=1000))["Records"]
                if not records:
                    break
                pending += len(records)
                iterator = response.get("NextShardIterator")
        return pending

    def _run(self) -> None:
        last_refresh, wait = time.monotonic(), self.poll_interval
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
            if busy or any(shard.buffer for shard in self.shards.values()):
                wait = self.poll_interval
            if not busy:
                self._stop.wait(wait)
                # An idle stream is polled less and less often, down to Lambda's own rate: a cloud
                # left idle (beside a test run, or overnight) stops costing a fifth of a core.
                wait = min(wait * 2, max(self.poll_interval, IDLE_POLL_SECONDS))

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
        if shard.buffer and (full or waited or shard.closed) and not self._held.is_set():
            batch, shard.buffer = shard.buffer[: self.spec.batch_size], shard.buffer[self.spec.batch_size :]
            shard.first_buffered_at = time.monotonic()
            self._delivering = True
            try:
                self.delivery.deliver(shard.shard_id, batch)
            except BaseException:
                # Never lost: the batch goes back to the front and is delivered again (at least once,
                # as Lambda's poller delivers), once `_run` has logged why the delivery broke off.
                shard.buffer[:0] = batch
                raise
            finally:
                self._delivering = False
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
            shard.iterator = self._iterator_after_last_read(shard)
            response = self.client.get_records(ShardIterator=shard.iterator, Limit=1000)
        if response.get("Records"):
            shard.last_sequence = response["Records"][-1]["dynamodb"]["SequenceNumber"]
        return response

    def _iterator_after_last_read(self, shard: _Shard) -> str:
        """A new iterator right after the last record read from ``shard`` (its start if none was)."""
        position = {"ShardIteratorType": "TRIM_HORIZON"}
        if shard.last_sequence:
            position = {"ShardIteratorType": "AFTER_SEQUENCE_NUMBER", "SequenceNumber": shard.last_sequence}
        iterator: str = self.client.get_shard_iterator(
            StreamArn=self.stream_arn, ShardId=shard.shard_id, **position
        )["ShardIterator"]
        return iterator

    def _buffer(self, shard: _Shard, raw_records: list[dict[str, Any]]) -> None:
        read_at, clock = time.time(), self.delivery.clock
        for raw in raw_records:
            record = lambda_record(raw, self.event_source_arn, read_at)
            change = record["dynamodb"]  # its time on the cloud's clock (a test may have moved it ahead)
            change["ApproximateCreationDateTime"] = clock.from_machine(change["ApproximateCreationDateTime"])
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
