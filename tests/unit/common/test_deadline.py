"""common.clients.within_deadline through common.api: an invocation that has less time left than an
attempt may take (a cold environment that spent its time importing) answers 503 with Retry-After at
once, instead of starting a call that would outlast Lambda's timeout (a 502). No network: the
attempt is refused before it is sent."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

import boto3
import pytest

from tatami_functions.common.api import create_resolver
from tatami_functions.common.clients import API_CALLS, _deadline, within_deadline
from tatami_functions.common.dependencies import worst_case_seconds
from tests.support.lambda_runtime import api_event

NOWHERE = "http://127.0.0.1:9"  # nothing listens: an attempt made would fail to connect, slowly


@dataclass(frozen=True)
class Context:
    remaining_ms: int

    def get_remaining_time_in_millis(self) -> int:
        return self.remaining_ms


def _app() -> Any:
    app = create_resolver("deadlines")
    queues = within_deadline(
        boto3.client(
            "sqs",
            endpoint_url=NOWHERE,
            region_name="us-east-1",
            aws_access_key_id="k",
            aws_secret_access_key="s",
            config=API_CALLS.config,
        )
    )

    @app.get("/queues")
    def list_queues() -> dict[str, Any]:
        return dict(queues.list_queues())

    return app


@pytest.mark.parametrize("remaining_ms", [0, 1_000, 2_400])
def test_no_time_for_an_attempt_is_a_503_at_once(remaining_ms: int) -> None:
    app = _app()
    started = time.monotonic()
    answer = app.resolve(api_event("GET", "/queues"), Context(remaining_ms))
    assert time.monotonic() - started < 0.5
    assert answer["statusCode"] == 503, answer
    assert answer["multiValueHeaders"]["Retry-After"] == ["5"]
    assert "did not answer in time" in json.loads(answer["body"])["message"]


def test_the_deadline_ends_with_the_invocation() -> None:
    _app().resolve(api_event("GET", "/queues"), Context(1_000))
    assert _deadline["epoch"] == float("inf")  # a stream handler in the same process has no deadline


def test_with_time_left_the_budget_is_spent_within_it() -> None:
    """Unreachable: three attempts and two backoffs, each attempt only when it can end in time."""
    remaining = worst_case_seconds() + 1  # the budget fits: the call runs as before
    app = _app()
    started = time.monotonic()
    answer = app.resolve(api_event("GET", "/queues"), Context(int(remaining * 1000)))
    assert answer["statusCode"] == 503 and time.monotonic() - started < remaining
