"""tatami_functions.common.dependencies: a failing dependency is a 503 with Retry-After, whatever the
error and whether or not a repository translated it, and no answer names an endpoint."""

from __future__ import annotations

import doctest
import json
from typing import Any

import pytest
from botocore.exceptions import (
    ClientError,
    ConnectionClosedError,
    EndpointConnectionError,
    NoCredentialsError,
    ReadTimeoutError,
)

from tatami_functions.common import dependencies
from tatami_functions.common.api import create_resolver
from tatami_functions.common.clients import API_CALLS
from tatami_functions.common.dependencies import DependencyError, failure, worst_case_seconds
from tests.support.lambda_runtime import FakeContext, api_event

ENDPOINT = "http://10.1.2.3:8000/"


class ThingsUnavailableError(DependencyError):
    pass


def client_error(code: str, status: int = 400) -> ClientError:
    response: Any = {"Error": {"Code": code, "Message": f"at {ENDPOINT}"}}
    response["ResponseMetadata"] = {"HTTPStatusCode": status}
    return ClientError(response, "Query")


FAILURES: list[tuple[BaseException, str, int]] = [
    (client_error("ProvisionedThroughputExceededException"), "is throttling requests", 1),
    (client_error("ThrottlingException"), "is throttling requests", 1),
    (client_error("InternalServerError", 500), "failed (InternalServerError)", 5),
    (client_error("AccessDeniedException"), "refused the request (AccessDeniedException)", 5),
    (EndpointConnectionError(endpoint_url=ENDPOINT), "cannot be reached", 5),
    (ConnectionClosedError(endpoint_url=ENDPOINT), "cannot be reached", 5),
    (ReadTimeoutError(endpoint_url=ENDPOINT), "did not answer in time", 5),
    (NoCredentialsError(), "failed (NoCredentialsError)", 5),
]

app = create_resolver("things")
RAISED: list[BaseException] = []  # what the route raises: a test sets it


@app.get("/things")
def things() -> dict[str, Any]:
    raise RAISED[0]


def _get(raised: BaseException) -> tuple[int, dict[str, Any], dict[str, list[str]]]:
    RAISED[:] = [raised]
    response = app.resolve(api_event("GET", "/things"), FakeContext())
    return response["statusCode"], json.loads(response["body"]), response["multiValueHeaders"]


@pytest.mark.parametrize(("error", "reason", "retry_after"), FAILURES, ids=lambda v: str(v)[:40])
def test_every_sdk_failure_becomes_the_services_error_with_a_reason_and_no_endpoint(
    error: BaseException, reason: str, retry_after: int
) -> None:
    made = failure(ThingsUnavailableError, "cannot query things", error, "dynamodb")
    assert str(made) == f"cannot query things: DynamoDB {reason}; retry after {retry_after} s"
    assert made.retry_after == retry_after and "10.1.2.3" not in str(made)


@pytest.mark.parametrize(("error", "reason", "retry_after"), FAILURES, ids=lambda v: str(v)[:40])
def test_an_untranslated_sdk_error_reaching_a_route_is_a_503_with_retry_after(
    error: BaseException, reason: str, retry_after: int
) -> None:
    status, body, headers = _get(error)
    assert (status, headers["Retry-After"]) == (503, [str(retry_after)])
    assert body == {"message": f"things unavailable: a dependency {reason}; retry after {retry_after} s"}


def test_a_services_own_error_is_answered_with_its_message_and_retry_after() -> None:
    translated = failure(ThingsUnavailableError, "cannot query things", client_error("ThrottlingException"))
    status, body, headers = _get(translated)
    assert (status, headers["Retry-After"]) == (503, ["1"])
    assert body == {"message": "cannot query things: a dependency is throttling requests; retry after 1 s"}


def test_a_frozen_dependency_is_given_up_on_inside_an_api_functions_10_s() -> None:
    assert worst_case_seconds(API_CALLS) < 10  # tests/infra checks every API function's timeout


def test_examples() -> None:
    assert doctest.testmod(dependencies, optionflags=doctest.ELLIPSIS).failed == 0
