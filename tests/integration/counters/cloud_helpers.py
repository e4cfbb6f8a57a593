"""Helpers of the counters' local-cloud tests: real HTTP against the app cloud's API."""

from __future__ import annotations

import uuid

import requests

from tatami.local.cloud import LocalCloud


def create(cloud: LocalCloud, prefix: str, target_wcu: int = 10_000) -> str:
    name = f"{prefix}-{uuid.uuid4().hex[:8]}"
    response = requests.put(f"{cloud.api_url}/counters/{name}", json={"target_wcu": target_wcu}, timeout=30)
    assert response.status_code == 201, response.text
    return name


def value(cloud: LocalCloud, name: str, **query: str) -> int:
    response = requests.get(f"{cloud.api_url}/counters/{name}", params=query, timeout=30)
    assert response.status_code == 200, response.text
    return int(response.json()["value"])


def increment(cloud: LocalCloud, name: str, by: int = 1, key: str | None = None) -> requests.Response:
    headers = {"Idempotency-Key": key} if key else {}
    return requests.post(
        f"{cloud.api_url}/counters/{name}/increments", json={"by": by}, headers=headers, timeout=30
    )


def rollup_settled(cloud: LocalCloud, name: str, expected: int) -> bool:
    return value(cloud, name, source="rollup") == value(cloud, name, consistent="true") == expected
