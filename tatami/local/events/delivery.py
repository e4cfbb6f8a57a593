"""How a batch of stream records reaches a function, as Lambda's event-source mapping delivers it.

A function error retries the batch; with `BisectBatchOnFunctionError` the batch is split in two
before each retry (a split is not counted as a retry, so a single bad record ends up alone); with
`ReportBatchItemFailures` a partial response checkpoints before the lowest failed sequence number
and retries from there (an empty or unknown `itemIdentifier` counts as a complete failure). After
`MaximumRetryAttempts` retries, or once a record is older than `MaximumRecordAgeInSeconds`, the
records are discarded and their metadata sent to the on-failure destination.

Record times are on the local cloud's clock (`metrics.LocalClock`, which tests may move ahead): the
record age limit and the iterator age reported per batch are measured on it, and the function gets
each record's time on the machine's clock moved back by what the clock skipped since the record was
read, so a function measuring its own lag (the Z-index maintainer, the roll-up) sees the same age.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from tatami.local.cloudwatch.metrics import LocalClock
from tatami.local.functions.pool import Invocation
from tatami.local.template.assembly import StreamMappingSpec

Invoke = Callable[[dict[str, Any]], Invocation]
Discard = Callable[[dict[str, Any]], None]


@dataclass
class MappingStats:
    invocations: int = 0
    records_delivered: int = 0
    records_filtered: int = 0
    records_discarded: int = 0


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
        clock: LocalClock | None = None,
        report_age: Callable[[float], None] = lambda _seconds: None,
    ) -> None:
        self.spec = spec
        self.function_arn = function_arn
        self.invoke = invoke
        self.discard = discard
        self.stats = stats
        self.log = log
        self.clock = clock or LocalClock()
        self.report_age = report_age  # seconds: Lambda's IteratorAge, the age of the batch's last record

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
        self.report_age(self.clock.now() - batch[-1]["dynamodb"]["ApproximateCreationDateTime"])
        invocation = self.invoke({"Records": self._as_delivered(batch)})
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

    def _as_delivered(self, batch: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The records with their times on the machine's clock, as old as they are on the cloud's."""
        if not self.clock.offset:
            return batch
        created = "ApproximateCreationDateTime"
        return [
            {**r, "dynamodb": {**r["dynamodb"], created: int(self.clock.to_machine(r["dynamodb"][created]))}}
            for r in batch
        ]

    def _drop_expired(self, shard_id: str, batch: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if self.spec.max_record_age_seconds < 0:
            return batch
        oldest_allowed = self.clock.now() - self.spec.max_record_age_seconds
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
