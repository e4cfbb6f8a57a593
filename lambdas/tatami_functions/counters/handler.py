"""Lambda entry points of the counters service: the API function(s) and the roll-up stream function."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
from aws_lambda_powertools.utilities.typing import LambdaContext

from tatami_functions.common.observability import logger, metrics, tracer
from tatami_functions.counters.api import app
from tatami_functions.counters.service import roll_up


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_REST)
@tracer.capture_lambda_handler
def api(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)


@logger.inject_lambda_context
@tracer.capture_lambda_handler
@metrics.log_metrics
def rollup(event: dict[str, Any], context: LambdaContext) -> PartialItemFailureResponse:
    return roll_up(event, context)
