"""`tatami local fire`, `status` and `alarms` talk to a running local cloud through its control endpoint."""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from click.testing import CliRunner

from tatami.local.cloud import LocalCloud
from tatami.local.control import ControlServer
from tatami.local.state import RunningState

local_command = importlib.import_module("tatami.commands.local")


@pytest.fixture
def running(probe_cloud: LocalCloud, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalCloud]:
    """The probe cloud as `tatami local` publishes it: its control endpoint and state file."""
    monkeypatch.setenv("TATAMI_LOCAL_DIR", str(tmp_path))
    control = ControlServer(probe_cloud)
    state = RunningState(tmp_path)
    state.publish(
        {"api_url": probe_cloud.api_url, "control_url": control.url, "outputs": probe_cloud.outputs}
    )
    try:
        yield probe_cloud
    finally:
        state.release()
        control.stop()


def test_fire_runs_a_scheduled_rule_of_the_running_cloud(running: LocalCloud) -> None:
    fired = CliRunner().invoke(local_command.local, ["fire", "EveryHour"])
    unknown = CliRunner().invoke(local_command.local, ["fire", "NoSuchRule"])
    status = CliRunner().invoke(local_command.local, ["status", "--json"])
    assert fired.exit_code == 0, fired.output
    assert ": ok " in fired.output and "ticked" in fired.output
    assert unknown.exit_code == 1 and "no rule matches 'NoSuchRule'" in unknown.output
    assert running.api_url in status.output
    streams = json.loads(status.output)["streams"]  # each stream trigger's backlog, from the running cloud
    assert streams and all(s["backlog_records"] >= 0 and "records_delivered" in s for s in streams.values())
    engines = json.loads(status.output)["engines"]  # each engine up, and the watchdog's restarts
    assert engines["DynamoDB Local"] == {
        "endpoint": running.dynamodb_endpoint,
        "running": True,
        "restarts": 0,
    }
    assert engines["moto server"]["running"]


def test_commands_without_a_running_cloud_say_how_to_start_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TATAMI_LOCAL_DIR", str(tmp_path))
    result = CliRunner().invoke(local_command.local, ["fire", "EveryHour"])
    assert result.exit_code == 1 and "make run" in result.output


def test_alarms_and_status_show_the_templates_alarms_as_the_running_cloud_evaluates_them(
    running: LocalCloud,
) -> None:
    assert requests.get(f"{running.api_url}/crash", timeout=30).status_code == 502
    running.clock.advance(60 - running.clock.now() % 60 + 1)  # the error's minute is complete
    firing = CliRunner().invoke(local_command.local, ["alarms"])
    status = json.loads(CliRunner().invoke(local_command.local, ["status", "--json"]).output)["alarms"]
    running.clock.advance(60)  # a minute without errors
    every = CliRunner().invoke(local_command.local, ["alarms", "--all"])
    assert firing.exit_code == 0, firing.output
    (line,) = [line for line in firing.output.splitlines() if line.startswith("ALARM")]
    name = line.split()[1]
    assert name.startswith("Probe-ApiErrors") and "Errors Sum > 0 (1 of 1 x 60 s)" in firing.output
    assert status["in ALARM"] == [name] and status["ALARM"] == 1
    assert f"OK                {name}" in every.output and "1 alarms: {'OK': 1}" in every.output
