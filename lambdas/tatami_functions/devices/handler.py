"""Lambda entry points of the device logs: the API and the TTL archiver (a stream consumer).

The archiver never routes a request: the resolver (its routes, Powertools' validation, pydantic) loads
with the API function's first request, not in every cold start of this module (bench/cold_start.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aws_lambda_powertools.logging import correlation_paths

from tatami_functions.common.observability import logger, tracer
from tatami_functions.devices import service

if TYPE_CHECKING:
    from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
    from aws_lambda_powertools.utilities.typing import LambdaContext


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_REST)
@tracer.capture_lambda_handler
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    from tatami_functions.devices.api import app  # here: see the module docstring

    return app.resolve(event, context)


@logger.inject_lambda_context
@tracer.capture_lambda_handler
def archive(event: dict[str, Any], context: LambdaContext) -> PartialItemFailureResponse:
    return service.archive_batch(event, context)
