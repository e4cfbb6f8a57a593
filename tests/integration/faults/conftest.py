"""A local cloud of the app whose functions meet injected faults (tatami/local/faults.py): throttling and
server errors on a fifth of their DynamoDB calls, and a roll-up whose execution environments are
killed every three calls, in the middle of their batches; for the alarms' tests, a forum function
that crashes on every request and a places function whose index reads are throttled half the time."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
import requests

from tatami.local import engines
from tatami.local.cloud import LocalCloud, LocalCloudConfig
from tatami.local.faults import THROTTLING, FaultPlan

ATTEMPTS = 12
THROTTLED = FaultPlan(rate=0.2, operations=("dynamodb",), seed=19)
PLANS = {
    "CountersWriteFunction": THROTTLED,
    "CountersRollupFunction": FaultPlan(rate=0.2, operations=("dynamodb",), crash_after=3, seed=20),
    "ReplicationLabFunction": THROTTLED,
    "ForumModelFunction": FaultPlan(operations=("dynamodb",), crash_after=1),
    "PlacesApiFunction": FaultPlan(
        rate=0.5, errors=THROTTLING, operations=("dynamodb.Query", "dynamodb.Scan"), seed=21
    ),
}


@pytest.fixture(scope="session")
def faulty_cloud(app_cloud: LocalCloud, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCloud]:
    """The app (app_cloud's synthesized assembly) with PLANS injected into those functions, its
    DynamoDB Local keeping its data in a folder (`--db-path`), so a test can restart it."""
    root = tmp_path_factory.mktemp("faulty")
    (root / "db").mkdir()
    config = LocalCloudConfig(
        cdk_out=app_cloud.config.cdk_out,
        api_port=engines.free_port(),
        dynamodb_port=engines.free_port(),
        moto_port=engines.free_port(),
        work_dir=root / "work",
        db_path=root / "db",
        echo_logs=False,
        poll_interval=0.05,
        warm_functions=False,
        faults=PLANS,
    )
    cloud = LocalCloud(config).start()
    yield cloud
    cloud.stop()


def injected(cloud: LocalCloud, what: str = "injected") -> int:
    """How many fault lines (`tatami faults: injected ...` or `killed ...`) the functions logged."""
    return sum(f"tatami faults: {what}" in line for line in cloud.log.snapshot())


def increment_until_accepted(cloud: LocalCloud, name: str, by: int, key: str) -> int:
    """What a careful client does: resend with the same Idempotency-Key until it is accepted (200),
    backing off on 5xx and on 409 (the same key still running). The number of sends."""
    for attempt in range(1, ATTEMPTS + 1):
        response = requests.post(
            f"{cloud.api_url}/counters/{name}/increments",
            json={"by": by},
            headers={"Idempotency-Key": key},
            timeout=60,
        )
        if response.status_code == 200:
            return attempt
        assert response.status_code in (409, 500, 502, 503), response.text  # never a 4xx for good input
        time.sleep(0.05 * attempt)
    raise AssertionError(f"increment {key} not accepted after {ATTEMPTS} sends")
