"""Every route that signs or checks page tokens, while Secrets Manager (where the tokens' key lives)
throttles every call, cannot be reached, or is frozen (moto server under SIGSTOP), on the app's
local cloud.

Invariant: each answer is a 503 with an integer Retry-After naming Secrets Manager and no endpoint,
within the API function's 10 s timeout: never a 502. The key is read once per execution environment,
so each condition meets environments that have not read it yet: the idle ones are killed (the pool
starts new ones, their init done before the sweep) and each is asked for a page after a `next` token,
which needs the key.
"""

from __future__ import annotations

import dataclasses
import re
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager
from functools import partial
from typing import Any

import pytest
import requests

from tatami.local.cloud import LocalCloud
from tatami.local.engines.faults import THROTTLING, UNREACHABLE, FaultPlan
from tatami.local.engines.processes import MOTO
from tests.support.failing import failing, frozen
from tests.support.route_families import FAMILIES, Call
from tests.support.waiting import eventually

FUNCTION_TIMEOUT = 10.0
TOKEN = "eyJrIjoxfQ.AAAA"  # well formed, so reading the key comes before any verdict on it
# botocore names Secrets Manager's events after its service id, hyphenated.
THROTTLED = FaultPlan(rate=1.0, errors=THROTTLING, operations=("secrets-manager",))
UNREACHABLE_SECRETS = FaultPlan(rate=1.0, errors=(UNREACHABLE,), operations=("secrets-manager",))
# A Z-index search may answer a `next` token with fewer items than its limit: the places function
# is warmed by a read instead, by the prefix of its logical id.
WARM_UPS = {"PlacesApiFun": Call("GET", "/places/fam-1")}
# Paged routes whose family's representative call (route_families.py) is another route.
MORE_CALLS = (
    Call("GET", "/employees", query={"state": "MA"}),
    Call("GET", "/forums/Amazon DynamoDB/threads/DynamoDB Thread 1/replies"),
)


Answer = tuple[int, str | None, str, float]  # status, Retry-After, body, seconds


def _token_routes(api: str) -> dict[str, Call]:
    """The GET calls of FAMILIES whose route takes `next`, by OpenAPI path; every such route covered."""

    def document_once() -> dict[str, Any] | None:  # its first build, cold, may outlast a loaded machine
        answer = requests.get(f"{api}/openapi.json", timeout=60)
        return dict(answer.json()) if answer.status_code == 200 else None

    document = eventually(document_once, timeout=120)
    assert document, "no OpenAPI document"
    paged = [
        path
        for path, operations in document["paths"].items()
        if any(p["name"] == "next" for p in operations.get("get", {}).get("parameters", []))
    ]
    covered: dict[str, Call] = {}
    for calls in (*FAMILIES.values(), MORE_CALLS):
        for call in calls:
            for path in paged:
                if call.method == "GET" and re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", path), call.path):
                    covered.setdefault(path, call)
    missing = sorted(set(paged) - set(covered))
    assert not missing, f"no call in tests/support/route_families.py or MORE_CALLS for {missing}"
    return covered


def _function(cloud: LocalCloud, call: Call) -> str:
    """The logical id of the function serving `call`."""
    assert cloud.api is not None
    route = cloud.api.routes.match(call.method, call.path)
    assert route is not None and route[0].function_id, call
    return route[0].function_id


def _answered(api: str, call: Call) -> bool:
    """`call` answered, and without a `next` token (signing one reads the key)."""
    answer = call.send(api, timeout=60)
    if answer.status_code >= 500:
        return False
    assert not (answer.ok and answer.json().get("next")), f"{call} signed a token: it read the key"
    return True


def _fresh_environments(cloud: LocalCloud, calls: dict[str, Call]) -> dict[str, list[Call]]:
    """Each function's idle execution environments killed, and a new one warmed by a first page that
    needs no token (so it has read no key; `limit` keeps a `next` token out of its answer) or by
    `WARM_UPS`. The calls by function."""
    by_function: dict[str, list[Call]] = {}
    for call in calls.values():
        by_function.setdefault(_function(cloud, call), []).append(call)

    def renew(function_id: str, served: list[Call]) -> None:
        for worker in list(cloud.pools[function_id]._idle):
            worker.process.kill()
            worker.process.wait()
        first_page = WARM_UPS.get(function_id[:12]) or dataclasses.replace(
            served[0], query={**served[0].query, "limit": "1000"}
        )
        warmed = eventually(partial(_answered, cloud.api_url, first_page), 120)
        assert warmed, f"{first_page} answered 5xx for two minutes"

    with ThreadPoolExecutor(4) as threads:  # a few cold starts at a time
        list(threads.map(renew, by_function, by_function.values()))
    return by_function


def _answer(api: str, call: Call) -> Answer:
    started = time.monotonic()
    answer = call.send(api, timeout=60, query={**call.query, "next": TOKEN})
    return answer.status_code, answer.headers.get("Retry-After"), answer.text, time.monotonic() - started


def _condition(cloud: LocalCloud, name: str) -> AbstractContextManager[Any]:
    if name == "frozen":
        return frozen(cloud, MOTO)
    return failing(cloud, THROTTLED if name == "throttled" else UNREACHABLE_SECRETS)


@pytest.fixture(scope="module")
def answers(app_cloud: LocalCloud) -> Iterator[dict[str, dict[str, Answer]]]:
    calls = _token_routes(app_cloud.api_url)
    found = {}
    paths = {id(call): path for path, call in calls.items()}
    for name in ("throttled", "unreachable", "frozen"):
        by_function = _fresh_environments(app_cloud, calls)

        def one_by_one(served: list[Call]) -> list[tuple[str, Answer]]:  # on its warm environment
            return [(paths[id(call)], _answer(app_cloud.api_url, call)) for call in served]

        with _condition(app_cloud, name), ThreadPoolExecutor(len(by_function)) as threads:
            found[name] = dict(
                pair for pairs in threads.map(one_by_one, by_function.values()) for pair in pairs
            )
        print(name, {path: answer[0] for path, answer in found[name].items()})
        for function_id in by_function:  # what the gateway's 502s were, if any
            print(function_id, Counter(i.error.get("errorType") for i in app_cloud.pools[function_id].recent))
    yield found


@pytest.mark.parametrize("condition", ["throttled", "unreachable", "frozen"])
def test_secrets_manager_failing_is_a_503_with_retry_after_on_every_token_route(
    answers: dict[str, dict[str, Answer]], condition: str
) -> None:
    for path, (status, retry_after, body, seconds) in answers[condition].items():
        assert status == 503, (path, status, body[:300])
        assert retry_after is not None and retry_after.isdigit(), (path, retry_after)
        assert "Secrets Manager" in body and "127.0.0.1" not in body, (path, body[:300])
        assert seconds < FUNCTION_TIMEOUT, (path, seconds)


def test_a_cold_environment_with_moto_frozen_answers_503_not_a_timeout(
    app_cloud: LocalCloud, answers: dict[str, dict[str, Answer]]
) -> None:
    """Its invocation spends part of its 10 s importing boto3 and making its client: no attempt starts
    that could outlast the rest (`common.clients.within_deadline`), so it answers 503, not Lambda's
    timeout (a 502)."""
    call = Call("GET", "/users/fam-u/documents")
    for worker in list(app_cloud.pools[_function(app_cloud, call)]._idle):  # the next request starts cold
        worker.process.kill()
        worker.process.wait()
    with frozen(app_cloud, MOTO):
        status, retry_after, body, _seconds = _answer(app_cloud.api_url, call)
    assert status == 503 and retry_after is not None and retry_after.isdigit(), (status, body[:300])
