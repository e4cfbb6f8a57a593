"""A local cloud of the app whose functions meet injected faults (tatami/local/faults.py): throttling and
server errors on a fifth of their DynamoDB calls, and a roll-up whose execution environments are
killed every few calls, in the middle of their batches."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tatami.local import engines
from tatami.local.cloud import LocalCloud, LocalCloudConfig
from tatami.local.faults import FaultPlan

THROTTLED = FaultPlan(rate=0.2, operations=("dynamodb",), seed=19)
PLANS = {
    "CountersWriteFunction": THROTTLED,
    "CountersRollupFunction": FaultPlan(rate=0.2, operations=("dynamodb",), crash_after=4, seed=20),
    "ReplicationLabFunction": THROTTLED,
}


@pytest.fixture(scope="module")
def faulty_cloud(app_cloud: LocalCloud, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCloud]:
    """The app (app_cloud's synthesized assembly) with PLANS injected into those functions."""
    config = LocalCloudConfig(
        cdk_out=app_cloud.config.cdk_out,
        api_port=engines.free_port(),
        dynamodb_port=engines.free_port(),
        moto_port=engines.free_port(),
        work_dir=tmp_path_factory.mktemp("faulty"),
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
    return sum(f"tatami faults: {what}" in line for line in list(cloud.log.lines))
