"""`tatami local faults KIND` arms a fault plan in a running local cloud through its control endpoint
(PUT /faults, DELETE /faults), which writes the switch file every function watches."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import requests
from click.testing import CliRunner

from tatami.local.cloud import LocalCloud
from tatami.local.control import ControlServer
from tatami.local.engines.faults import LOST_RESPONSE, FaultPlan
from tatami.local.state import RunningState, read_state

local_command = importlib.import_module("tatami.commands.local")


@pytest.fixture
def switch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A running cloud's control endpoint and state, its fault switch the returned path (no engines:
    the cloud is LocalCloud's own `inject_faults` over a config naming the switch)."""
    monkeypatch.setenv("TATAMI_LOCAL_DIR", str(tmp_path))
    path = tmp_path / "faults.json"
    cloud: Any = SimpleNamespace(config=SimpleNamespace(fault_switch=path))
    cloud.inject_faults = lambda plan: LocalCloud.inject_faults(cloud, plan)
    control = ControlServer(cloud)
    state = RunningState(tmp_path)
    state.publish({"api_url": "http://127.0.0.1:1", "control_url": control.url, "outputs": {}})
    try:
        yield path
    finally:
        state.release()
        control.stop()


def test_lose_responses_arms_the_plan_every_function_watches_and_off_disarms_it(switch: Path) -> None:
    options = ["--operation", "dynamodb.UpdateItem", "--table", "CountersShards", "--attempt", "1"]
    armed = CliRunner().invoke(local_command.local, ["faults", "lose-responses", *options])
    assert armed.exit_code == 0, armed.output
    plan = FaultPlan.from_json(switch.read_text())
    assert plan == FaultPlan(
        1.0, (LOST_RESPONSE,), ("dynamodb.UpdateItem",), resources=("CountersShards",), attempts=(1,)
    )
    assert "armed in every function" in armed.output
    off = CliRunner().invoke(local_command.local, ["faults", "off"])
    assert off.exit_code == 0 and "no fault armed" in off.output
    assert not switch.exists()


def test_the_control_endpoint_refuses_what_is_not_a_plan(switch: Path) -> None:
    found = read_state(switch.parent)
    assert found is not None
    url = found["control_url"]
    refused = requests.put(f"{url}/faults", data=b'{"rate": "often", "unknown": 1}', timeout=10)
    assert refused.status_code == 400 and "not a fault plan" in refused.json()["message"]
    assert not switch.exists()
    assert requests.put(f"{url}/nothing", data=b"{}", timeout=10).status_code == 404
