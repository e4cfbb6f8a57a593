"""Every write route family while DynamoDB and S3 lose responses (tatami/local/engines/faults.py: the
call applies, the function sees a read timeout), on the app's local cloud.

Two conditions: the first answer of every call is lost (the SDK's resend then gets through, unless
resending could apply the write twice), and every write's answer is lost (each write fails after
applying as often as it was sent). For N concurrent requests per family, on resources of their own:

- a 2xx was applied (its resource is stored), a 4xx never happens (each request is valid and new:
  a 404 or 409 here would be a false one, the write's own earlier attempt taken for another's);
- a 503 says whether it may have applied, how to send it again and when (Retry-After), and one
  that says "not applied" left nothing;
- nothing is applied twice: an unkeyed increment counts once per request that may have applied it
  (0 double counts), a keyed one too, and a customer's order count equals their orders.
"""

from __future__ import annotations

import time
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import requests

from tatami.local.cloud import LocalCloud
from tatami.local.engines.faults import LOST_RESPONSE, FaultPlan
from tests.support.failing import failing
from tests.support.lost_responses import REMOVABLE, Answer, Write, writes
from tests.support.route_families import Call

WRITE_CALLS = (
    "dynamodb.PutItem",
    "dynamodb.UpdateItem",
    "dynamodb.DeleteItem",
    "dynamodb.TransactWriteItems",
    "s3.PutObject",
    "s3.DeleteObject",
)
PER_FAMILY = 3
INCREMENTS = 12  # unkeyed and keyed, each
CONDITIONS = {
    "first answer lost": FaultPlan(
        rate=1.0, errors=(LOST_RESPONSE,), operations=("dynamodb", "s3"), attempts=(1,)
    ),
    "every write's answer lost": FaultPlan(rate=1.0, errors=(LOST_RESPONSE,), operations=WRITE_CALLS),
}
Outcome = dict[str, Any]


def _send(api: str, call: Call) -> Answer:
    return Answer.of(call.send(api, timeout=60))


def _increments(api: str, counter: str, keyed: bool) -> list[Answer]:
    headers = lambda i: {"Idempotency-Key": f"{counter}-{i}"} if keyed else {}  # noqa: E731
    calls = [
        Call("POST", f"/counters/{counter}/increments", {"by": 1}, headers=headers(i))
        for i in range(INCREMENTS)
    ]
    with ThreadPoolExecutor(6) as pool:
        return list(pool.map(lambda call: _send(api, call), calls))


def _value(api: str, counter: str) -> int:
    response = requests.get(f"{api}/counters/{counter}", params={"consistent": "true"}, timeout=60)
    return int(response.json()["value"])


def _run(cloud: LocalCloud, plan: FaultPlan) -> Outcome:
    """Under `plan`: every family's writes, then the removals of those stored, then increments."""
    api, prefix = cloud.api_url, uuid.uuid4().hex[:6]
    made = writes(prefix, PER_FAMILY)
    counters = {keyed: f"lost-{prefix}-{'keyed' if keyed else 'plain'}" for keyed in (False, True)}
    for name in counters.values():  # made before the fault, so each increment meets it on its own write
        assert requests.put(f"{api}/counters/{name}", json={"target_wcu": 100}, timeout=60).status_code == 201
        assert _value(api, name) == 0  # and the functions' config caches hold it
    with failing(cloud, plan), ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda write: _send(api, write.call), made))
        stored = [w for w, a in zip(made, answers, strict=True) if a.status < 300 and w.family in REMOVABLE]
        removals = list(pool.map(lambda write: _send(api, write.removal()), stored))
        increments = {keyed: _increments(api, name, keyed) for keyed, name in counters.items()}
    return {
        "writes": list(zip(made, answers, strict=True)),
        "removals": list(zip(stored, removals, strict=True)),
        "increments": {
            keyed: (answers, _value(api, counters[keyed])) for keyed, answers in increments.items()
        },
    }


def _warm(cloud: LocalCloud) -> None:
    """Warm execution environments for each function the run calls, each past its first request (a
    cold start on a loaded 2-core machine can outlast a function's 10 s; it is no part of this test)."""
    assert cloud.api is not None
    samples = writes("warm", 1)
    served = Counter(
        found[0].function_id
        for write in samples
        if (found := cloud.api.routes.match(write.call.method, write.call.path)) is not None
    )
    for function_id, families in served.items():
        if function_id:
            cloud.pools[function_id].warm(PER_FAMILY * families)
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda write: _send(cloud.api_url, write.call), samples))
    assert all(answer.status < 300 for answer in answers), answers


@pytest.fixture(scope="module")
def outcomes(app_cloud: LocalCloud) -> Iterator[dict[str, Outcome]]:
    started = time.monotonic()
    _warm(app_cloud)
    warmed = time.monotonic()
    found = {condition: _run(app_cloud, plan) for condition, plan in CONDITIONS.items()}
    print(f"warmed in {warmed - started:.0f} s, both conditions in {time.monotonic() - warmed:.0f} s")
    for condition, outcome in found.items():
        statuses = Counter(answer.status for _, answer in outcome["writes"])
        removed = Counter(answer.status for _, answer in outcome["removals"])
        counted = {
            k: (Counter(a.status for a in answers), value)
            for k, (answers, value) in outcome["increments"].items()
        }
        print(
            f"{condition}: writes {dict(statuses)}, removals {dict(removed)}, "
            f"increments (keyed: statuses, value) {counted}"
        )
    yield found


@pytest.mark.parametrize("condition", CONDITIONS)
def test_a_write_answered_2xx_is_stored_and_one_answered_not_applied_is_not(
    outcomes: dict[str, Outcome], condition: str, app_cloud: LocalCloud
) -> None:
    for write, answer in outcomes[condition]["writes"]:
        assert answer.status < 300 or answer.status == 503, (write, answer)  # never a false 4xx
        if answer.status == 503:
            assert answer.truthful_503(), (write, answer)
        stored = _stored_now(write, app_cloud.api_url, outcomes[condition], answer)
        if answer.status < 300:
            assert stored, (write, answer)
        elif not answer.may_have_applied:
            assert not stored, (write, answer)


def _stored_now(write: Write, api: str, outcome: Outcome, answer: Answer) -> bool:
    """Whether the write's effect is stored, before its removal (if it was removed, it was stored)."""
    removed = any(w == write for w, _ in outcome["removals"])
    return removed or write.stored(api)


@pytest.mark.parametrize("condition", CONDITIONS)
def test_a_removal_is_never_a_false_404_and_what_it_answered_2xx_is_gone(
    outcomes: dict[str, Outcome], condition: str, app_cloud: LocalCloud
) -> None:
    removals = outcomes[condition]["removals"]
    if condition == "first answer lost":  # every write was answered (resent), so each is removed
        assert {write.family for write, _ in removals} == set(REMOVABLE)
    for write, answer in removals:
        assert answer.status < 300 or (answer.status == 503 and answer.truthful_503()), (write, answer)
        if answer.status < 300:
            assert not write.stored(app_cloud.api_url), (write, answer)
        elif not answer.may_have_applied:
            assert write.stored(app_cloud.api_url), (write, answer)


@pytest.mark.parametrize("condition", CONDITIONS)
@pytest.mark.parametrize("keyed", [False, True], ids=["unkeyed", "keyed"])
def test_increments_count_once_per_request_that_may_have_applied_them(
    outcomes: dict[str, Outcome], condition: str, keyed: bool
) -> None:
    answers, value = outcomes[condition]["increments"][keyed]
    assert all(a.status == 200 or (a.status == 503 and a.truthful_503()) for a in answers), answers
    accepted = sum(a.status == 200 for a in answers)
    maybe = sum(a.status == 503 and a.may_have_applied for a in answers)
    # The fault applies every call it loses the answer of: each "may have applied" did, exactly once.
    assert value == accepted + maybe, (value, accepted, maybe)
    if not keyed:
        assert maybe > 0 and all("Idempotency-Key" in a.body["retry"] for a in answers if a.status == 503)


@pytest.mark.parametrize("condition", CONDITIONS)
def test_a_customer_counts_each_order_once(
    outcomes: dict[str, Outcome], condition: str, app_cloud: LocalCloud
) -> None:
    orders = [write for write, answer in outcomes[condition]["writes"] if write.family == "orders"]
    assert orders
    for write in orders:  # each order its own customer: the summary counts it once, or not at all
        customer = requests.get(f"{app_cloud.api_url}/customers/{write.call.body['CustomerId']}", timeout=60)
        counted = customer.json()["OrderCount"] if customer.status_code == 200 else 0
        assert counted == (1 if write.stored(app_cloud.api_url) else 0), (write, customer.text)
