"""Lambda entry points of the counters service: the API function(s) and the roll-up stream function.

The roll-up never routes a request: the resolver (its routes, Powertools' validation, pydantic) loads
with the API functions' first request, not in every cold start of this module (bench/cold_start.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aws_lambda_powertools.logging import correlation_paths

from tatami_functions.common.observability import logger, metrics, tracer
from tatami_functions.counters.service import roll_up

if TYPE_CHECKING:
    from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
    from aws_lambda_powertools.utilities.typing import LambdaContext


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_REST)
@tracer.capture_lambda_handler
def api(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    from tatami_functions.counters.api import app  # here: see the module docstring

    return app.resolve(event, context)


@logger.inject_lambda_context
@tracer.capture_lambda_handler
@metrics.log_metrics
def rollup(event: dict[str, Any], context: LambdaContext) -> PartialItemFailureResponse:
    return roll_up(event, context)
