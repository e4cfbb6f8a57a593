"""The replicator: a batch of the source's stream records applied to the replica, idempotently.

A batch is reduced to the newest record per key (older ones would be refused anyway), and those
are written in parallel: the writes are conditional on the version, so their order does not
matter and neither does a redelivery. Records the replica refused for now are reported as batch
item failures (Lambda retries from the first of them); records it can never store are parked on
the failure queue so the shard moves on.
"""

from __future__ import annotations

import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Any

from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
from aws_lambda_powertools.utilities.typing import LambdaContext

from tatami_functions.common.observability import logger, metrics
from tatami_functions.common.stream_batches import partial_response
from tatami_functions.replication.exceptions import ReplicaUnavailableError, UnreplicableRecordError
from tatami_functions.replication.parking import parked_message
from tatami_functions.replication.records import Record, newest_per_key, replica_item
from tatami_functions.replication.repository import ReplicaRepository, failure_queue, repository
from tatami_functions.replication.settings import ReplicatorSettings

WRITERS = 8


@cache
def _writers() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=WRITERS, thread_name_prefix="replica")


def apply_record(record: Record, replica: ReplicaRepository, now: float, tombstone_seconds: int) -> str:
    """Write one record's version; its outcome: "applied", "stale", "parked" or "failed: <why>"."""
    try:
        item = replica_item(record, now, tombstone_seconds)
        return "applied" if replica.write(item) else "stale"
    except (UnreplicableRecordError, ValueError) as exc:
        logger.error("parking an unreplicable record", extra={"keys": record["dynamodb"].get("Keys")})
        try:
            park(record, str(exc))
        except ReplicaUnavailableError as unparked:
            return f"failed: {unparked}"
        return "parked"
    except ReplicaUnavailableError as exc:
        return f"failed: {exc}"


def park(record: Record, reason: str) -> None:
    """Send the record's key and position to the failure queue, so the shard moves on without it."""
    failure_queue().park(parked_message(record, reason))


def apply_batch(records: list[Record], replica: ReplicaRepository | None = None) -> dict[str, str]:
    """Apply the newest record of each key; sequence number -> outcome for the records written."""
    replica = replica or repository()
    now, tombstone_seconds = time.time(), ReplicatorSettings.from_env().tombstone_seconds
    newest = list(newest_per_key(records).values())
    outcomes = _writers().map(lambda r: apply_record(r, replica, now, tombstone_seconds), newest)
    return {r["dynamodb"]["SequenceNumber"]: outcome for r, outcome in zip(newest, outcomes, strict=True)}


def handle_batch(event: dict[str, Any], context: LambdaContext | None = None) -> PartialItemFailureResponse:
    """The stream function's work: apply the batch, report what must be retried."""
    records = event["Records"]
    outcomes = apply_batch(records)
    failed = {seq: why for seq, why in outcomes.items() if why.startswith("failed")}
    _record_metrics(records, outcomes)
    return partial_response(event, context, failed, ReplicaUnavailableError)


def _record_metrics(records: list[Record], outcomes: dict[str, str]) -> None:
    counts = Counter(outcome.split(":")[0] for outcome in outcomes.values())
    counts["superseded"] = len(records) - len(outcomes)  # older records of a key in the same batch
    for outcome, count in counts.items():
        metrics.add_metric(name=f"Records{outcome.capitalize()}", unit=MetricUnit.Count, value=count)
    oldest = min((float(r["dynamodb"].get("ApproximateCreationDateTime", 0)) for r in records), default=0)
    if oldest:
        metrics.add_metric(name="ReplicationLagSeconds", unit=MetricUnit.Seconds, value=time.time() - oldest)
