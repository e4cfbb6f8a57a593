"""Counters on the app's local cloud: real HTTP, handlers in worker processes, DynamoDB Local, the stream."""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

import pytest
import requests

from tatami.local.cloud import LocalCloud
from tatami_functions import stack_outputs
from tests.integration.counters.cloud_helpers import create, increment, rollup_settled, value
from tests.support.waiting import eventually


@pytest.mark.slow  # 3,200 HTTP requests: about 20-40 s on two cores
def test_16_threads_of_200_increments_end_at_exactly_3200(app_cloud: LocalCloud) -> None:
    name = create(app_cloud, "load")

    def client(_: int) -> list[int]:
        with requests.Session() as session:
            url = f"{app_cloud.api_url}/counters/{name}/increments"
            return [session.post(url, json={"by": 1}, timeout=30).status_code for _ in range(200)]

    with ThreadPoolExecutor(16) as pool:
        statuses = [status for statuses in pool.map(client, range(16)) for status in statuses]
    assert statuses == [200] * 3200
    assert value(app_cloud, name, consistent="true") == 3200
    assert value(app_cloud, name) == 3200
    assert eventually(lambda: rollup_settled(app_cloud, name, 3200)), "the roll-up should catch up"
    shards = app_cloud.client("dynamodb").scan(
        TableName=app_cloud.outputs[stack_outputs.OUTPUT_COUNTER_SHARDS_TABLE],
        FilterExpression="begins_with(pk, :name)",
        ExpressionAttributeValues={":name": {"S": f"{name}#"}},
    )["Items"]
    assert len(shards) == 15  # 10,000 WCU -> 10 shards x 1.5, and 3,200 random writes touch them all


def test_the_same_idempotency_key_sent_five_times_counts_once(app_cloud: LocalCloud) -> None:
    name = create(app_cloud, "keyed")
    replies = [increment(app_cloud, name, 7, key="ballot-1") for _ in range(5)]
    assert [r.status_code for r in replies] == [200] * 5
    assert [r.json()["replayed"] for r in replies] == [False, True, True, True, True]
    assert [r.headers.get("Idempotent-Replayed") for r in replies[1:]] == ["true"] * 4
    with ThreadPoolExecutor(20) as pool:  # twenty at once: one commits, the rest replay or retry later
        racing = list(pool.map(lambda _: increment(app_cloud, name, 1, key="ballot-2"), range(20)))
    assert {r.status_code for r in racing} <= {200, 409}
    assert sum(r.status_code == 200 and not r.json()["replayed"] for r in racing) == 1
    assert all(r.headers.get("Retry-After") == "1" for r in racing if r.status_code == 409)
    assert value(app_cloud, name, consistent="true") == 8
    reused = increment(app_cloud, name, 2, key="ballot-1")
    assert reused.status_code == 422 and "Idempotency-Key" in reused.json()["message"]


def test_http_answers_for_bad_input_and_unknown_counters(app_cloud: LocalCloud) -> None:
    name = create(app_cloud, "strict")
    api = app_cloud.api_url
    assert requests.get(f"{api}/counters/nobody-{uuid.uuid4().hex[:6]}", timeout=30).status_code == 404
    assert increment(app_cloud, f"nobody-{uuid.uuid4().hex[:6]}").status_code == 404
    cases: list[tuple[dict[str, Any], str]] = [({}, "by"), ({"by": "1"}, "by"), ({"by": 10**7}, "by")]
    for body, field in cases:
        response = requests.post(f"{api}/counters/{name}/increments", json=body, timeout=30)
        assert response.status_code == 400 and response.json()["message"].startswith(f"{field}:")
    outside_the_set = requests.get(f"{api}/counters/caf%C3%A9", timeout=30)
    assert outside_the_set.status_code == 400 and outside_the_set.json()["message"].startswith("name:")
    # '#' separates name and shard: the name's pattern refuses it, so it cannot reach a shard key.
    refused = requests.get(f"{api}/counters/a%23b", timeout=30)
    assert refused.status_code == 400 and refused.json()["message"].startswith("name:")


def test_the_sample_casts_the_seeds_votes(app_cloud: LocalCloud) -> None:
    from tatami.samples import counters as sample

    progress: list[tuple[int, int]] = []
    summary = sample.load(app_cloud, lambda done, total: progress.append((done, total)))
    assert summary.startswith("votes-A 170, votes-B 130") and len(progress) == 300
    assert sample.load(app_cloud, lambda done, total: None).endswith("already exist (kept as they are)")
    for name, votes in sample.VOTES.items():
        assert value(app_cloud, name, consistent="true") == votes
        assert eventually(partial(rollup_settled, app_cloud, name, votes), timeout=20)
