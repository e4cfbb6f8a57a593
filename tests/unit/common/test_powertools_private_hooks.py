"""The three private parts of Powertools that common/api.py relies on, pinned to the version they were
checked against, so an upgrade fails here first and names what to re-check.

Why they stay private (Powertools 3.37.0): request validation runs first in every route's middleware
stack, before any middleware given to `app.use` or a route (its docstring: "before they reach user
middlewares"), so a public middleware sees a request only after Powertools has read its body and
validated its path values. Reading a body as JSON only when its Content-Type says so, a body that is
not UTF-8 as a 400, and path values decoded once after routing must happen before that, so
`JsonResolver` replaces the validation middleware's body reading (`_get_body`, calling its
`_parse_json_data`), installs it where the route stack looks for it (`_request_validation_middleware`),
and decodes route keys where the resolver makes them (`_convert_matches_into_route_keys`).
tests/unit/lambdas/common/test_api.py shows each hook at work.
"""

from __future__ import annotations

import inspect
from importlib.metadata import version

from aws_lambda_powertools.event_handler import APIGatewayRestResolver
from aws_lambda_powertools.event_handler.api_gateway import Route
from aws_lambda_powertools.event_handler.middlewares.openapi_validation import (
    OpenAPIRequestValidationMiddleware,
)

from tatami_functions.common.api import _JsonBodies, create_resolver

PINNED = "3.37.0"  # pyproject's and constraints.txt's Powertools


def _parameters(function: object) -> list[str]:
    return list(inspect.signature(function).parameters)  # type: ignore[arg-type]


def test_powertools_is_the_version_the_private_hooks_were_checked_against() -> None:
    assert version("aws-lambda-powertools") == PINNED, (
        "Powertools changed: check common/api.py's private hooks against it (this module says which "
        "and why; a public way to run before request validation would retire them), then move PINNED"
    )


def test_the_body_reading_hooks_are_methods_of_the_validation_middleware_taking_the_app() -> None:
    assert _parameters(OpenAPIRequestValidationMiddleware._get_body) == ["self", "app"]
    assert _parameters(OpenAPIRequestValidationMiddleware._parse_json_data) == ["self", "app"]


def test_route_keys_are_made_by_the_resolver_from_the_route_match() -> None:
    assert _parameters(APIGatewayRestResolver._convert_matches_into_route_keys) == ["self", "match"]


def test_the_route_stack_takes_the_validation_middleware_from_the_app_attribute() -> None:
    assert "app._request_validation_middleware" in inspect.getsource(Route._build_middleware_stack)
    app = create_resolver("hooks")
    assert isinstance(app._request_validation_middleware, _JsonBodies)  # ours, not the default
