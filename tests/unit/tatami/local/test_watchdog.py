"""tatami/local/engines/watchdog.py on stand-in engines (real processes): a death is said in one line within a
second, and an engine whose data cannot come back stops the cloud; the restart itself is tested on a
real DynamoDB Local (tests/integration/faults/test_engine_deaths.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tatami.local.engines.processes import DYNAMODB_LOCAL, MOTO, Engine
from tatami.local.engines.watchdog import EngineWatch
from tests.support.waiting import eventually


@pytest.fixture
def engine() -> Iterator[Engine]:
    process = subprocess.Popen(["sleep", "60"], start_new_session=True)
    yield Engine(DYNAMODB_LOCAL, 8000, process)
    if process.poll() is None:
        process.kill()
    process.wait()


def _watch(engine: Engine, db_path: Path | None, said: list[str], lost: list[str]) -> EngineWatch:
    watch = EngineWatch([engine], db_path, Path("."), said.append, lost.append, interval=0.1)
    watch.start()
    return watch


def test_an_in_memory_engine_killed_is_named_in_one_line_and_the_cloud_is_told_to_stop(
    engine: Engine,
) -> None:
    said: list[str] = []
    lost: list[str] = []
    watch = _watch(engine, None, said, lost)
    assert engine.process is not None
    os.killpg(engine.process.pid, signal.SIGKILL)
    killed_at = time.monotonic()
    assert eventually(lambda: lost, timeout=5)
    assert time.monotonic() - killed_at < 1.5
    (line,) = lost
    assert line.startswith("DynamoDB Local on http://127.0.0.1:8000 was killed by SIGKILL; its data was")
    assert "so the local cloud stops" in line and said == []
    watch.stop()


def test_an_engine_stopped_on_purpose_is_left_be(engine: Engine) -> None:
    said: list[str] = []
    lost: list[str] = []
    watch = _watch(engine, None, said, lost)
    engine.stop()
    time.sleep(0.5)
    assert said == lost == []
    watch.stop()


def test_an_engine_that_keeps_dying_stops_the_cloud(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    def restart(port: int, _log: Path, _db: Path | None) -> Engine:
        return Engine(DYNAMODB_LOCAL, port, subprocess.Popen(["true"]))

    monkeypatch.setattr("tatami.local.engines.watchdog.start_dynamodb_local", restart)
    said: list[str] = []
    lost: list[str] = []
    watch = _watch(engine, Path("/tmp"), said, lost)
    assert engine.process is not None
    engine.process.kill()
    assert eventually(lambda: lost, timeout=10)
    assert lost[0].startswith("DynamoDB Local on http://127.0.0.1:8000 exited with code 0 again: 3 restarts")
    assert [line.split(";")[1].strip() for line in said if ";" in line] == ["restarting it with its data"] * 3
    watch.stop()


def test_moto_keeping_its_data_in_the_folder_is_restarted_with_it(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[tuple[int, Path | None]] = []

    def restart(port: int, _log: Path, db_path: Path | None) -> Engine:
        started.append((port, db_path))
        return Engine(MOTO, port, subprocess.Popen(["sleep", "60"], start_new_session=True))

    monkeypatch.setattr("tatami.local.engines.watchdog.start_moto", restart)
    moto = Engine(MOTO, 5005, subprocess.Popen(["sleep", "60"], start_new_session=True))
    said: list[str] = []
    lost: list[str] = []
    engines = [moto]
    watch = EngineWatch(engines, Path("/tmp/db"), Path("."), said.append, lost.append, interval=0.1)
    watch.start()
    assert moto.process is not None
    moto.process.kill()
    assert eventually(lambda: len(said) == 2, timeout=5)
    assert said[0].startswith("moto server on http://127.0.0.1:5005 was killed by SIGKILL; restarting it")
    assert started == [(5005, Path("/tmp/db"))] and lost == [] and engines[0] is not moto
    watch.stop()
    engines[0].kill()
