"""Every route family while DynamoDB throttles every call, cannot be reached, or is frozen (SIGSTOP:
connections open, nothing answers), on the app's local cloud.

Invariant: each answer is a 503 with an integer Retry-After and a message, none names an internal
endpoint, none is a 502; frozen, each comes back within the API function's 10 s timeout, well before
the freeze ends. A write's 503 says whether it may have applied: throttled or unreachable, never.
Throttling and unreachability are injected into the API functions' SDK calls
(`tatami.local.engines.faults`: the SDK retries them as it would AWS's); the freeze is real. One sweep per
condition: each family's first call (its write, where it has one), the families side by side, each
with a warm execution environment of its own (as many per function as the function serves families:
a cold start is no part of what is measured).
"""

from __future__ import annotations

import json
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import pytest

from tatami.local.cloud import LocalCloud
from tatami_functions.ip_lookup.service import MISS_REREAD_SECONDS
from tests.support.failing import THROTTLED, UNREACHABLE_ENDPOINT, failing, frozen
from tests.support.route_families import FAMILIES, Call

FUNCTION_TIMEOUT = 10.0  # every API function but places (29 s)
CONDITIONS = ("throttled", "unreachable", "frozen")
CASES = [(condition, family) for condition in CONDITIONS for family in FAMILIES]


@dataclass(frozen=True)
class Answer:
    status: int
    retry_after: str | None
    body: str
    seconds: float


def _answer(api: str, call: Call) -> Answer:
    headers = {**call.headers}
    if "Idempotency-Key" in headers:  # a new key each time: a replay would answer from the record
        headers["Idempotency-Key"] = uuid.uuid4().hex
    started = time.monotonic()
    response = call.send(api, timeout=60, headers=headers)
    seconds = time.monotonic() - started
    return Answer(response.status_code, response.headers.get("Retry-After"), response.text, seconds)


def _sweep(api: str, at_once: int = len(FAMILIES)) -> dict[str, Answer]:
    with ThreadPoolExecutor(at_once) as pool:
        answers = pool.map(lambda calls: _answer(api, calls[0]), FAMILIES.values())
        return dict(zip(FAMILIES, answers, strict=True))


@pytest.fixture(scope="module")
def answers(app_cloud: LocalCloud) -> Iterator[dict[str, dict[str, Answer]]]:
    """Each condition's answers, by family (after one healthy sweep: warm functions, seeded items)."""
    api = app_cloud.api_url
    assert app_cloud.api is not None
    functions = Counter(
        found[0].function_id
        for calls in FAMILIES.values()
        if (found := app_cloud.api.routes.match(calls[0].method, calls[0].path)) is not None
    )
    for function_id, families in functions.items():
        if function_id:
            app_cloud.pools[function_id].warm(families)
    # Healthy, a few at a time: the first request of an execution environment does real work (its
    # clients, the service's models), and twenty at once on a loaded 2-core machine can outlast 10 s.
    _sweep(api, at_once=4)
    # The IP lookup answers a miss from its cached alias (no dataset loaded) without asking DynamoDB
    # again within a second of its last read: past that, its miss re-reads, and meets the failure.
    time.sleep(MISS_REREAD_SECONDS)
    with failing(app_cloud, THROTTLED):
        throttled = _sweep(api)
    with failing(app_cloud, UNREACHABLE_ENDPOINT):
        unreachable = _sweep(api)
    with frozen(app_cloud):
        stuck = _sweep(api)
    answers = {"throttled": throttled, "unreachable": unreachable, "frozen": stuck}
    for condition, answered in answers.items():
        statuses = Counter(answer.status for answer in answered.values())
        slowest = max(answer.seconds for answer in answered.values())
        print(f"{condition}: {dict(statuses)} from {len(answered)} families, slowest {slowest:.1f} s")
    yield answers


@pytest.mark.parametrize(("condition", "family"), CASES)
def test_a_failing_dependency_is_a_503_with_retry_after_naming_no_endpoint(
    answers: dict[str, dict[str, Answer]], condition: str, family: str
) -> None:
    answer = answers[condition][family]
    assert answer.status == 503, answer
    assert answer.retry_after is not None and answer.retry_after.isdigit(), answer
    assert "127.0.0.1" not in answer.body and "http://" not in answer.body, answer
    assert answer.seconds < FUNCTION_TIMEOUT, answer


WRITES = [(condition, family) for condition, family in CASES if FAMILIES[family][0].method != "GET"]


@pytest.mark.parametrize(("condition", "family"), WRITES)
def test_a_write_answered_503_says_whether_it_may_have_applied(
    answers: dict[str, dict[str, Answer]], condition: str, family: str
) -> None:
    body = json.loads(answers[condition][family].body)
    assert isinstance(body["may_have_applied"], bool) and body["retry"], body
    if condition != "frozen":  # throttled or unreachable, every call: provably nothing applied
        assert body["may_have_applied"] is False, body
