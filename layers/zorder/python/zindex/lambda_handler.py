"""The maintainer's Lambda entry point (DynamoDB stream, partial batch failures): the ZOrderIndex
construct deploys it as is, so a table gets its indexes maintained without code of its own.

The batch is applied up front (newest image per key, writes in parallel: :func:`zindex.maintainer.maintain`),
then Powertools' ``BatchProcessor`` reports each record: the failed ones fail (Lambda retries from the
lowest), the others succeed. One metric per batch counts the keys written, another is the index lag
(``LAG_METRIC``: how long the batch's oldest write waited for its index keys, which the stack alarms
on); unencodable items are logged with their key and reason, and counted (``UNENCODABLE_METRIC``,
alarmed too). The names live in :mod:`zindex.status`, importable without Powertools. Needs the
Powertools layer (the construct adds it; ``pip install "zorder[lambda]"`` elsewhere) besides boto3.
"""

from __future__ import annotations

import os
import time
from functools import cache
from typing import Any

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord
from aws_lambda_powertools.utilities.typing import LambdaContext

from zindex.dynamodb import IndexRepository
from zindex.maintainer import BatchResult, maintain
from zindex.spec import IndexedTable
from zindex.status import BATCH_SIZE_ENV, LAG_METRIC, UNENCODABLE_METRIC, batch_fields

__all__ = ["BATCH_SIZE_ENV", "LAG_METRIC", "UNENCODABLE_METRIC", "handler"]

logger = Logger()
metrics = Metrics()
processor = BatchProcessor(event_type=EventType.DynamoDBStreams)


class RecordFailed(Exception):
    """This record's write-back failed; Lambda retries it (and the records after it)."""


@cache
def repository() -> IndexRepository:
    return IndexRepository(IndexedTable.from_env(os.environ))


def report(result: BatchResult, records: int) -> None:
    """Log and count what one batch did, and record the maintainer's progress in the status item."""
    for key, reason in result.unencodable:
        logger.warning("unencodable item left out of the indexes", extra={"key": key, "reason": reason})
    logger.info("index batch", extra={"records": records, **dict(result.outcomes)})
    metrics.add_metric(name="AddressesWritten", unit=MetricUnit.Count, value=result.outcomes["written"])
    if result.unencodable:
        metrics.add_metric(name=UNENCODABLE_METRIC, unit=MetricUnit.Count, value=len(result.unencodable))
    if result.oldest_record_s is not None:
        lag = max(0.0, time.time() - result.oldest_record_s)
        metrics.add_metric(name=LAG_METRIC, unit=MetricUnit.Seconds, value=round(lag, 3))
    if result.engine_records == records:
        return  # only the echo of our own status write: recording it would echo again, forever
    full = records >= int(os.environ.get(BATCH_SIZE_ENV, "100"))
    repository().update_status(
        {"all": result.entries}, batch_fields(result.oldest_record_s, full, time.time())
    )


@logger.inject_lambda_context
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> Any:
    """Maintain the indexes of the table ``ZINDEX_SPEC`` declares from one stream batch; answer
    Lambda's partial batch response (``batchItemFailures``: the records whose write-back failed)."""
    records = event.get("Records", [])
    result = maintain(repository(), records)
    report(result, len(records))
    failed = set(result.failed)

    def outcome(record: DynamoDBRecord) -> None:
        if record.dynamodb is not None and record.dynamodb.sequence_number in failed:
            raise RecordFailed(record.dynamodb.sequence_number)

    return process_partial_response(event=event, record_handler=outcome, processor=processor, context=context)
