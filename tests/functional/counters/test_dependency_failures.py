"""Counters when DynamoDB fails: throttling past the SDK's retries, an unreachable endpoint, a frozen
one (read timeout). Every route answers 503 with Retry-After and a message naming the service,
never an endpoint, and never crashes (a crash is API Gateway's 502)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from botocore.exceptions import EndpointConnectionError, ReadTimeoutError
from botocore.retries import standard

from tatami.local.engines.faults import _error_response
from tatami_functions.common.dependencies import THROTTLED_RETRY_AFTER, UNAVAILABLE_RETRY_AFTER
from tatami_functions.counters.repository import repository

Call = Callable[..., tuple[int, dict[str, Any], dict[str, str]]]  # the `call` fixture
ENDPOINT = "https://dynamodb.eu-west-1.amazonaws.com/"


def _throttled(request: Any, **_: Any) -> Any:
    return _error_response(request.url, "ThrottlingException")  # the SDK retries it, then gives up


def _unreachable(**_: Any) -> None:
    raise EndpointConnectionError(endpoint_url=ENDPOINT)


def _frozen(**_: Any) -> None:
    raise ReadTimeoutError(endpoint_url=ENDPOINT)


ROUTES = [
    ("PUT", "/counters/down", None, None),
    ("POST", "/counters/down/increments", {"by": 1}, None),
    ("POST", "/counters/down/increments", {"by": 1}, {"Idempotency-Key": "k-1"}),
    ("GET", "/counters/down", None, None),
    ("GET", "/counters/down", None, {"source": "rollup"}),
]


# each failure with the reason the answer gives and how long it asks the client to wait
FAILURES = {
    "throttled": (_throttled, "is throttling requests", THROTTLED_RETRY_AFTER),
    "unreachable": (_unreachable, "cannot be reached", UNAVAILABLE_RETRY_AFTER),
    "frozen": (_frozen, "did not answer in time", UNAVAILABLE_RETRY_AFTER),
}


@pytest.fixture(params=list(FAILURES.values()), ids=list(FAILURES))
def failing(
    call: Call, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[Call, str, int]]:
    """`call`, with every DynamoDB call of the handler failing one way (after the counter exists).

    The SDK still retries each failure as it would (3 tries); only its backoff sleeps are skipped.
    """
    monkeypatch.setattr(standard.ExponentialBackoff, "delay_amount", lambda self, context: 0.0)
    assert call("PUT", "/counters/down")[0] in (200, 201)
    call("POST", "/counters/down/increments", {"by": 1})  # the write path's config cache is warm too
    events = repository().client.meta.events  # the one client of the function's repository
    inject, reason, retry_after = request.param
    events.register_first("before-send.dynamodb", inject, unique_id="dependency-failure")
    yield call, reason, retry_after
    events.unregister("before-send.dynamodb", unique_id="dependency-failure")


@pytest.mark.parametrize(("method", "path", "body", "extra"), ROUTES)
def test_every_route_answers_503_with_retry_after_naming_no_endpoint(
    failing: tuple[Call, str, int], method: str, path: str, body: Any, extra: dict[str, str] | None
) -> None:
    kwargs: dict[str, Any] = {}
    if extra and method == "GET":
        kwargs["query"] = extra
    elif extra:
        kwargs["headers"] = extra
    call, reason, retry_after = failing
    status, response, headers = call(method, path, body, **kwargs)
    assert (status, headers.get("Retry-After")) == (503, str(retry_after)), response
    message = response["message"]
    assert message.startswith("cannot ")
    assert message.endswith(f": DynamoDB {reason}; retry after {retry_after} s")
    assert "amazonaws" not in str(response) and "http" not in str(response)
