"""Lambda entry point of the replicator: the source table's stream, applied to the replica."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
from aws_lambda_powertools.utilities.typing import LambdaContext

from tatami_functions.common.observability import logger, metrics, tracer
from tatami_functions.replication.service import handle_batch


@logger.inject_lambda_context
@tracer.capture_lambda_handler
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> PartialItemFailureResponse:
    return handle_batch(event, context)
