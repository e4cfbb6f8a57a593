"""Session fixtures that start real engines: DynamoDB Local alone, and whole local clouds."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tatami.local.cloud import LocalCloud, LocalCloudConfig, free_ports
from tatami.local.engines import processes as engines
from tatami.local.engines.faults import FaultPlan
from tatami.local.gateway.routes import read_routes
from tatami.local.template.assembly import load_assembly
from tests.support.synthesis import synthesize

REPO = Path(__file__).resolve().parents[2]
PROBE_APP = REPO / "tests" / "fixtures" / "probe_app" / "app.py"


def start_cloud(cdk_out: Path, work_dir: Path) -> LocalCloud:
    config = LocalCloudConfig(
        cdk_out=cdk_out,
        **free_ports(),
        work_dir=work_dir,
        echo_logs=False,
        poll_interval=0.05,
    )
    return LocalCloud(config).start()


@pytest.fixture(scope="session")
def probe_cloud(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCloud]:
    """The probe app (tests/fixtures/probe_app) on its own local cloud."""
    root = tmp_path_factory.mktemp("probe")
    subprocess.run([sys.executable, str(PROBE_APP), str(root / "cdk.out")], check=True, capture_output=True)
    cloud = start_cloud(root / "cdk.out", root / "work")
    yield cloud
    cloud.stop()


@pytest.fixture(scope="session")
def dynamodb_local(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The endpoint of a DynamoDB Local of its own (in memory) for repository-level tests."""
    engine = engines.start_dynamodb_local(engines.free_port(), tmp_path_factory.mktemp("ddb") / "ddb.log")
    yield engine.endpoint
    engine.stop()


@pytest.fixture(scope="session")
def app_cloud(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCloud]:
    """tatami's own app on a local cloud of its own (functions start cold on first use). Its API
    functions' DynamoDB calls fail while a switch file exists (`tests.support.failing.failing`)."""
    root = tmp_path_factory.mktemp("app")
    synthesize(root / "cdk.out")
    api_functions = {
        route.function_id
        for stack in load_assembly(root / "cdk.out").stacks
        for route in read_routes(stack)
        if route.function_id
    }
    switched = FaultPlan(switch=str(root / "faults.json"))
    config = LocalCloudConfig(
        cdk_out=root / "cdk.out",
        **free_ports(),
        work_dir=root / "work",
        echo_logs=False,
        poll_interval=0.05,
        warm_functions=False,
        faults=dict.fromkeys(sorted(api_functions), switched),
    )
    cloud = LocalCloud(config).start()
    yield cloud
    cloud.stop()
