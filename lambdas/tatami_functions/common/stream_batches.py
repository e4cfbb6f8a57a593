"""The one shape of a stream consumer: apply the batch, then report each record's outcome.

A consumer applies its batch up front (reduced to what must be written, written in parallel or as
one object), knowing which records failed and why; `partial_response` then hands the batch to
Powertools' `BatchProcessor`, which reports those records as batch item failures and the others as
done. Lambda checkpoints before the lowest failed record and retries from it; the event-source
mapping must enable `ReportBatchItemFailures` (infra's `subscribe_to_stream` does, and `tatami
doctor` checks it), or Lambda would take the response for a success. When every record failed,
Powertools raises `BatchProcessingError` instead: a function error, so Lambda bisects the batch
(`BisectBatchOnFunctionError`) and a poisoned record ends alone.
The Z-index maintainer in the zorder layer has the same shape of its own (the layer cannot import this).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord
from aws_lambda_powertools.utilities.typing import LambdaContext

__all__ = ["RecordFailedError", "partial_response"]

_processor = BatchProcessor(event_type=EventType.DynamoDBStreams)


class RecordFailedError(Exception):
    """This record was not applied; Lambda retries it (and the records after it)."""


def partial_response(
    event: dict[str, Any],
    context: LambdaContext | None,
    failed: Mapping[str, str],
    error: type[Exception] = RecordFailedError,
) -> PartialItemFailureResponse:
    """The response naming the records of `event` whose sequence numbers `failed` holds (with why:
    raised as `error`, which Powertools logs), every other record done.

    >>> records = [{"eventName": "INSERT", "dynamodb": {"SequenceNumber": n}} for n in ("7", "8")]
    >>> partial_response({"Records": records}, None, {"8": "throttled"})
    {'batchItemFailures': [{'itemIdentifier': '8'}]}
    >>> partial_response({"Records": records}, None, {})
    {'batchItemFailures': []}
    """

    def check(record: DynamoDBRecord) -> None:
        sequence = record.dynamodb.sequence_number if record.dynamodb else None
        if sequence is not None and sequence in failed:
            raise error(failed[sequence])

    return process_partial_response(event=event, record_handler=check, processor=_processor, context=context)
