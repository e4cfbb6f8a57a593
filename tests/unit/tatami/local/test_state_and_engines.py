"""tatami/local/state.py and engines.py: one local cloud per checkout, clear errors for what is missing."""

from __future__ import annotations

import importlib
import socket
from pathlib import Path

import pytest
from click.testing import CliRunner

from tatami.local.engines import processes as engines
from tatami.local.state import AlreadyRunning, RunningState, read_state

# The package re-exports the click group under the module's name; fetch the module itself.
local_command = importlib.import_module("tatami.commands.local")


def test_a_second_start_says_where_the_first_one_serves(tmp_path: Path) -> None:
    first = RunningState(tmp_path)
    first.publish({"api_url": "http://127.0.0.1:3000"})
    with pytest.raises(
        AlreadyRunning, match=r"already running \(pid \d+\) with its API on http://127.0.0.1:3000"
    ):
        RunningState(tmp_path)
    assert read_state(tmp_path)["api_url"] == "http://127.0.0.1:3000"
    first.release()
    assert read_state(tmp_path) is None
    RunningState(tmp_path).release()  # free again once the first one stopped


def test_the_cli_refuses_a_second_local_cloud(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TATAMI_LOCAL_DIR", str(tmp_path))
    running = RunningState(tmp_path)
    running.publish({"api_url": "http://127.0.0.1:3000"})
    try:
        result = CliRunner().invoke(local_command.local, ["--no-synth"])
    finally:
        running.release()
    assert result.exit_code == 1
    assert "already running" in result.output and "Ctrl-C" in result.output


def test_a_busy_port_is_named(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        with pytest.raises(engines.EngineError, match=f"port {port} for DynamoDB Local is already in use"):
            engines.start_dynamodb_local(port, tmp_path / "ddb.log")


def test_missing_java_is_explained(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engines.shutil, "which", lambda _name: None)
    with pytest.raises(engines.EngineError, match="Java is required for DynamoDB Local"):
        engines.start_dynamodb_local(engines.free_port(), tmp_path / "ddb.log")


def test_missing_dynamodb_local_says_how_to_install(tmp_path: Path) -> None:
    with pytest.raises(engines.EngineError, match="npm ci"):
        engines.dynamodb_local_jar(tmp_path / "node_modules")
