"""The local cloud serves a selection (`-c services=counters`): that service, its docs, and nothing else."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import requests

from tatami.local.cloud import LocalCloud
from tests.integration.conftest import start_cloud
from tests.integration.counters.cloud_helpers import create, increment, value
from tests.support.synthesis import synthesize


@pytest.fixture(scope="module")
def counters_cloud(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCloud]:
    root = tmp_path_factory.mktemp("counters-only")
    synthesize(root / "cdk.out", {"services": "counters"})
    cloud = start_cloud(root / "cdk.out", root / "work")
    yield cloud
    cloud.stop()


def test_the_selected_service_answers_and_is_documented(counters_cloud: LocalCloud) -> None:
    name = create(counters_cloud, "selected")
    assert [increment(counters_cloud, name, 2).status_code for _ in range(3)] == [200] * 3
    assert value(counters_cloud, name, consistent="true") == 6
    document = requests.get(f"{counters_cloud.api_url}/openapi.json", timeout=30).json()
    assert sorted(document["paths"]) == ["/counters/{name}", "/counters/{name}/increments"]


def test_nothing_else_is_there(counters_cloud: LocalCloud) -> None:
    missing = requests.get(f"{counters_cloud.api_url}/places/1850147", timeout=30)
    assert missing.status_code == 403, missing.text  # API Gateway's answer to a route it lacks
    assert len(counters_cloud.client("dynamodb").list_tables()["TableNames"]) == 3
