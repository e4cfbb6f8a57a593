"""Lambda entry point of the index maintainer (DynamoDB stream, partial batch failures)."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord
from aws_lambda_powertools.utilities.typing import LambdaContext

from common.observability import logger, metrics, tracer
from places.maintainer import maintain_record
from places.settings import settings

processor = BatchProcessor(event_type=EventType.DynamoDBStreams)


def _record(record: DynamoDBRecord) -> None:
    maintain_record(settings(), record.raw_event)


@logger.inject_lambda_context
@tracer.capture_lambda_handler
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> PartialItemFailureResponse:
    return process_partial_response(event=event, record_handler=_record, processor=processor, context=context)
