"""Counters exact on a busy machine: unkeyed increments sent from several threads while every core
spins beside the local cloud (tests/support/busy.py), with no fault injected.

On a loaded machine answers come late, and an SDK that resends a timed-out `ADD` counts it twice (the
issue saw 2,000 increments make 2,057). Invariant: the counter holds every increment answered 200,
plus at most those whose 503 says they may have applied; never more (0 double counts). A longer run:
bench/busy_counters.py.
"""

from __future__ import annotations

import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import requests

from tatami.local.cloud import LocalCloud
from tests.support.busy import busy
from tests.support.lost_responses import Answer

INCREMENTS, THREADS, SECONDS = 240, 8, 60


def test_unkeyed_increments_count_exactly_while_every_core_is_busy(app_cloud: LocalCloud) -> None:
    api, name = app_cloud.api_url, f"busy-{uuid.uuid4().hex[:8]}"
    writer = next(function_id for function_id in app_cloud.pools if function_id.startswith("CountersWrite"))
    app_cloud.pools[writer].warm(THREADS)  # serving is measured here, not cold starts
    assert requests.put(f"{api}/counters/{name}", json={"target_wcu": 100}, timeout=60).status_code == 201

    def increment(_: int) -> Answer:
        return Answer.of(requests.post(f"{api}/counters/{name}/increments", json={"by": 1}, timeout=60))

    with ThreadPoolExecutor(THREADS) as pool:
        warming = list(pool.map(increment, range(THREADS)))  # each environment's clients made
        with busy(SECONDS) as cores:
            answers = list(pool.map(increment, range(INCREMENTS)))
    assert all(answer.status == 200 for answer in warming), warming
    answers += warming
    value = requests.get(f"{api}/counters/{name}", params={"consistent": "true"}, timeout=60).json()["value"]
    statuses = Counter(answer.status for answer in answers)
    accepted = statuses[200]
    maybe = sum(answer.status == 503 and answer.may_have_applied for answer in answers)
    print(
        f"{len(answers)} increments, {INCREMENTS} beside {cores} burners: {dict(statuses)}, counter {value}"
    )
    assert set(statuses) <= {200, 503}, statuses
    assert all(answer.truthful_503() for answer in answers if answer.status == 503)
    assert accepted <= value <= accepted + maybe, (value, accepted, maybe)
