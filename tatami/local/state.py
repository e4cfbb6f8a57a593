"""One local cloud per checkout: a lock held while it runs and a state file other commands read."""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path
from typing import IO, Any

from tatami.checkout import repo_root

WORK_DIR_ENV = "TATAMI_LOCAL_DIR"


def default_work_dir() -> Path:
    """Where the local cloud keeps its lock, state and logs: `.local` in the checkout, or TATAMI_LOCAL_DIR
    (the lifecycle tests run `tatami local` beside a developer's own). Read when a command needs it."""
    override = os.environ.get(WORK_DIR_ENV)
    return Path(override) if override else repo_root() / ".local"


class AlreadyRunning(RuntimeError):
    """Another `tatami local` holds the lock; the message says where it serves and how to stop it."""


class RunningState:
    """Hold `work_dir/cloud.lock` for the life of this object; publish `cloud.json` beside it."""

    def __init__(self, work_dir: Path) -> None:
        work_dir.mkdir(parents=True, exist_ok=True)
        self.state_file = work_dir / "cloud.json"
        self._lock: IO[str] = (work_dir / "cloud.lock").open("a")
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._lock.close()
            raise AlreadyRunning(describe_running(read_state(work_dir))) from None

    def publish(self, state: dict[str, Any]) -> None:
        temporary = self.state_file.with_suffix(".tmp")
        temporary.write_text(json.dumps({"pid": os.getpid(), **state}, indent=2))
        temporary.replace(self.state_file)

    def release(self) -> None:
        if self._lock.closed:  # released already (a second Ctrl-C releases before it kills)
            return
        self.state_file.unlink(missing_ok=True)
        fcntl.flock(self._lock, fcntl.LOCK_UN)
        self._lock.close()


def read_state(work_dir: Path) -> dict[str, Any] | None:
    """The running local cloud's state, or None when none runs (the lock is free)."""
    lock_path = work_dir / "cloud.lock"
    if not lock_path.exists():
        return None
    with lock_path.open("a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            state_file = work_dir / "cloud.json"
            return json.loads(state_file.read_text()) if state_file.exists() else {"starting": True}
        fcntl.flock(lock, fcntl.LOCK_UN)
    return None


def stale_state(work_dir: Path) -> dict[str, Any] | None:
    """The state file of a local cloud that ended without removing it (killed, crashed), or None."""
    state_file = work_dir / "cloud.json"
    if not state_file.exists() or read_state(work_dir) is not None:
        return None
    try:
        stale: dict[str, Any] = json.loads(state_file.read_text())
    except ValueError:
        stale = {}
    return stale


def describe_running(state: dict[str, Any] | None) -> str:
    if not state or state.get("starting"):
        return "a local cloud is already starting in this checkout; wait for it, or stop it with Ctrl-C"
    return (
        f"the local cloud is already running (pid {state['pid']}) with its API on {state['api_url']}; "
        f"use it, or stop it with Ctrl-C in its terminal or `kill {state['pid']}`"
    )
