"""A local cloud of the app whose functions meet injected faults (tatami/local/engines/faults.py):
throttling and
server errors on a fifth of their DynamoDB calls, a roll-up whose execution environments are
killed every three calls, in the middle of their batches, a counters writer killed once at each
step of a keyed increment (CRASHES: before or after its calls, on counters named after the step);
for the alarms' tests, a forum function that crashes on every request and a places function whose
index reads are throttled half the time."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tatami.local.cloud import LocalCloud, LocalCloudConfig, free_ports
from tatami.local.engines.faults import THROTTLING, Crash, FaultPlan

ATTEMPTS = 12
THROTTLED = FaultPlan(rate=0.2, operations=("dynamodb",), seed=19)
# Each crash fires once, on the calls of a counter whose name holds its marker.
CRASHES = (
    Crash("before", "dynamodb.GetItem", "crash-before-config"),  # nothing read, nothing written
    Crash("before", "dynamodb.TransactWriteItems", "crash-before-commit"),  # config read, nothing written
    Crash("after", "dynamodb.TransactWriteItems", "crash-after-commit"),  # committed, no answer sent
    Crash("after", "dynamodb.TransactWriteItems", "crash-twice"),  # committed, no answer sent...
    Crash("after", "dynamodb.TransactWriteItems", "crash-twice"),  # ...nor to the retry that replayed it
)
PLANS = {
    "CountersWriteFunction": dataclasses.replace(THROTTLED, crashes=CRASHES),
    "CountersRollupFunction": FaultPlan(rate=0.2, operations=("dynamodb",), crash_after=3, seed=20),
    "ReplicationLabFunction": THROTTLED,
    "ForumModelFunction": FaultPlan(operations=("dynamodb",), crash_after=1),
    "PlacesApiFunction": FaultPlan(
        rate=0.5, errors=THROTTLING, operations=("dynamodb.Query", "dynamodb.Scan"), seed=21
    ),
}


@pytest.fixture(scope="package")  # stopped after this package: an idle cloud still costs CPU
def faulty_cloud(app_cloud: LocalCloud, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCloud]:
    """The app (app_cloud's synthesized assembly) with PLANS injected into those functions, its
    DynamoDB Local keeping its data in a folder (`--db-path`), so a test can restart it."""
    root = tmp_path_factory.mktemp("faulty")
    (root / "db").mkdir()
    (root / "ledger").mkdir()  # which crashes fired, across the writer's processes
    plans = {name: dataclasses.replace(plan, ledger=str(root / "ledger")) for name, plan in PLANS.items()}
    config = LocalCloudConfig(
        cdk_out=app_cloud.config.cdk_out,
        **free_ports(),
        work_dir=root / "work",
        db_path=root / "db",
        echo_logs=False,
        poll_interval=0.05,
        warm_functions=False,
        faults=plans,
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
    return send_until_accepted(cloud, name, by, key)[0]


def send_until_accepted(cloud: LocalCloud, name: str, by: int, key: str) -> tuple[int, dict[str, Any]]:
    """`increment_until_accepted`, with the accepted answer's body too."""
    for attempt in range(1, ATTEMPTS + 1):
        response = requests.post(
            f"{cloud.api_url}/counters/{name}/increments",
            json={"by": by},
            headers={"Idempotency-Key": key},
            timeout=60,
        )
        if response.status_code == 200:
            return attempt, response.json()
        assert response.status_code in (409, 500, 502, 503), response.text  # never a 4xx for good input
        time.sleep(0.05 * attempt)
    raise AssertionError(f"increment {key} not accepted after {ATTEMPTS} sends")
