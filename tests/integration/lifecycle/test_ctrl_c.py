"""`tatami local` (what `make run` starts) from the outside, as a terminal drives it: Ctrl-C reaches
its whole process group; every part stops with one line and no traceback, a second Ctrl-C kills at
once, and no process of it is left (psutil reads the process tree). A busy port is named with the
option that moves it; `status` clears the state a killed run left behind."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import psutil
import pytest
import requests

from tatami.local.engines import processes as engines
from tests.integration.conftest import PROBE_APP

REPO = Path(__file__).resolve().parents[3]
TATAMI = str(Path(sys.executable).with_name("tatami"))  # the console script, as `make run` runs it


@dataclass
class Run:
    """One `tatami local` process and the lines it printed so far."""

    process: subprocess.Popen[str]
    port: int
    lines: list[str] = field(default_factory=list)
    _queue: queue.Queue[str | None] = field(default_factory=queue.Queue)

    def __post_init__(self) -> None:
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._queue.put(line.rstrip("\n"))
        self._queue.put(None)

    def wait_for(self, text: str, timeout: float = 90) -> None:
        deadline = time.monotonic() + timeout
        while not any(text in line for line in self.lines):
            line = self._queue.get(timeout=max(0.1, deadline - time.monotonic()))
            assert line is not None, "\n".join(self.lines)
            self.lines.append(line)

    def finish(self, timeout: float) -> int:
        code = self.process.wait(timeout=timeout)
        while (line := self._queue.get(timeout=5)) is not None:
            self.lines.append(line)
        return code

    def ctrl_c(self) -> None:
        os.killpg(self.process.pid, signal.SIGINT)  # the terminal signals the foreground group

    def tree(self) -> list[psutil.Process]:
        return psutil.Process(self.process.pid).children(recursive=True)


@pytest.fixture(scope="module")
def cdk_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("probe") / "cdk.out"
    subprocess.run([sys.executable, str(PROBE_APP), str(out)], check=True, capture_output=True)
    return out


def _start(cdk_out: Path, work_dir: Path, port: int | None = None) -> Run:
    port = port or engines.free_port()
    args = ["local", "--no-synth", "--no-samples", "--cdk-out", str(cdk_out), "--port", str(port)]
    args += ["--dynamodb-port", str(engines.free_port()), "--moto-port", str(engines.free_port())]
    process = subprocess.Popen(
        [TATAMI, *args],
        cwd=REPO,
        env={**os.environ, "TATAMI_LOCAL_DIR": str(work_dir), "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    return Run(process, port)


@pytest.fixture
def run(cdk_out: Path, tmp_path: Path) -> Iterator[Run]:
    started = _start(cdk_out, tmp_path)
    started.wait_for("local cloud is up")
    yield started
    if started.process.poll() is None:
        os.killpg(started.process.pid, signal.SIGKILL)


def _gone(processes: list[psutil.Process]) -> list[psutil.Process]:
    _, alive = psutil.wait_procs(processes, timeout=5)
    return alive


def test_ctrl_c_stops_every_part_with_one_line_each_and_leaves_no_process(run: Run) -> None:
    assert requests.put(f"http://127.0.0.1:{run.port}/notes/n1", json={"t": 1}, timeout=30).ok
    tree = run.tree()
    names = " ".join(" ".join(p.cmdline()) for p in tree)
    for part in ("DynamoDBLocal.jar", "tatami.local.engines.moto_server", "tatami.local.functions.worker"):
        assert part in names, part
    run.ctrl_c()
    assert run.finish(timeout=30) == 0
    stopping = run.lines[run.lines.index("stopping the local cloud (Ctrl-C again kills it at once) ...") :]
    stopping = [line for line in stopping if " | " not in line]  # functions' own log lines interleave
    assert [line.split(":")[0].strip() for line in stopping[1:-1]] == [
        "stream triggers",
        "API on http",
        "functions",
        "moto server",
        "DynamoDB Local",
    ], stopping
    assert stopping[-1] == "stopped"
    assert not any("Traceback" in line for line in run.lines), "\n".join(run.lines)
    assert _gone(tree) == []


def test_a_second_ctrl_c_kills_at_once(run: Run, tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{run.port}/slow?seconds=2.8"  # a busy worker holds the stop up
    threading.Thread(target=_request_cut_short, args=(url,), daemon=True).start()
    time.sleep(0.5)
    tree = run.tree()
    run.ctrl_c()
    run.wait_for("stopping the local cloud")
    started = time.monotonic()
    run.ctrl_c()
    assert run.finish(timeout=10) == 130
    assert time.monotonic() - started < 2.0
    assert "killed" in run.lines
    assert not (tmp_path / "cloud.json").exists()  # `status` will not think it still runs
    assert not any("Traceback" in line for line in run.lines), "\n".join(run.lines)
    assert _gone(tree) == []


def test_a_busy_port_is_one_line_naming_it_and_the_option(cdk_out: Path, tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        started = _start(cdk_out, tmp_path, port=port)
        assert started.finish(timeout=30) == 1
    assert started.lines == [
        f"Error: port {port} is already in use: choose another with --port {port + 1} "
        f"(or PORT={port + 1} make run)"
    ]


def test_status_clears_the_state_of_a_crashed_run(tmp_path: Path) -> None:
    """What a crash leaves: the state file, its lock free (the kernel released it with the process),
    and here one of its ports still held by something."""
    with socket.socket() as lingering:
        lingering.bind(("127.0.0.1", 0))
        lingering.listen()
        port = lingering.getsockname()[1]
        state = {
            "pid": 4_000_000,
            "api_url": "http://127.0.0.1:9",
            "moto_endpoint": f"http://127.0.0.1:{port}",
        }
        (tmp_path / "cloud.json").write_text(json.dumps(state))
        (tmp_path / "cloud.lock").touch()
        env = {**os.environ, "TATAMI_LOCAL_DIR": str(tmp_path)}
        status = _status(env)
    assert status.returncode == 1
    assert status.stderr.strip() == (
        "Error: no local cloud runs: the one started as pid 4000000 (http://127.0.0.1:9) ended without "
        f"stopping; its state is cleared; still listening: http://127.0.0.1:{port}. Start one with `make run`"
    )
    assert "no local cloud runs in this checkout" in _status(env).stderr


def _status(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([TATAMI, "local", "status"], cwd=REPO, env=env, capture_output=True, text=True)


def _request_cut_short(url: str) -> None:
    """A request the kill cuts off: its connection error is the expected end."""
    with contextlib.suppress(requests.RequestException):
        requests.get(url, timeout=30)
