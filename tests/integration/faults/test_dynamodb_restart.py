"""DynamoDB Local stopped and started again under `--db-path` while the local cloud runs (the faulty
cloud: its functions still meet throttling, its roll-up still gets killed).

Invariant: what was written before the restart is still there; afterwards routes and the stream
consumer work again without restarting the cloud, and shards == roll-up == accepted increments.
"""

from __future__ import annotations

import pytest
import requests

from tatami.local.cloud import LocalCloud
from tatami.local.engines import processes as engines
from tests.integration.counters.cloud_helpers import create, value
from tests.integration.faults.conftest import increment_until_accepted
from tests.support.waiting import eventually


def _settled(cloud: LocalCloud, name: str, expected: int) -> bool:
    return value(cloud, name, consistent="true") == value(cloud, name, source="rollup") == expected


@pytest.mark.long
def test_data_survives_a_dynamodb_restart_and_workers_reconnect(faulty_cloud: LocalCloud) -> None:
    """Invariant: data before the restart kept; shards == roll-up == accepted increments after it."""
    name = create(faulty_cloud, "restart")
    before = sum(increment_until_accepted(faulty_cloud, name, 1, f"before-{n}") > 0 for n in range(3))
    assert eventually(lambda: _settled(faulty_cloud, name, before), timeout=60)
    (dynamodb,) = [engine for engine in faulty_cloud.engines if engine.name == "DynamoDB Local"]
    dynamodb.stop()
    down = requests.get(f"{faulty_cloud.api_url}/counters/{name}", timeout=60)
    assert down.status_code >= 500  # the engine is down: an error, never a wrong value
    config = faulty_cloud.config
    restarted = engines.start_dynamodb_local(
        config.dynamodb_port, config.work_dir / "logs" / "dynamodb-local-restarted.log", config.db_path
    )
    faulty_cloud.engines[faulty_cloud.engines.index(dynamodb)] = restarted
    assert value(faulty_cloud, name, consistent="true") == before  # kept
    after = sum(increment_until_accepted(faulty_cloud, name, 1, f"after-{n}") > 0 for n in range(3))
    assert eventually(lambda: _settled(faulty_cloud, name, before + after), timeout=60)
