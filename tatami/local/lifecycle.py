"""How `tatami local` starts and ends cleanly: busy ports named with the option that moves them, one
line per part on Ctrl-C (a second Ctrl-C kills everything at once), a crashed run's state cleared."""

from __future__ import annotations

import os
import signal
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from tatami.local.cloud import LocalCloud
from tatami.local.engines import processes as engines


def ports_free(ports: dict[str, int]) -> None:
    """Every port free, or one line naming the busy one and the option that moves it.

    For example (not run as a doctest)::

        ports_free({"--port": 3000})
        # -> Error: port 3000 is already in use: choose another with --port 3001 (or PORT=3001 make run)
    """
    for flag, port in ports.items():
        try:
            engines.ensure_port_free(port, flag)
        except engines.EngineError:
            hint = f"{flag} {port + 1}" + (f" (or PORT={port + 1} make run)" if flag == "--port" else "")
            raise click.ClickException(f"port {port} is already in use: choose another with {hint}") from None


def stop_reporting(cloud: LocalCloud, echo: Callable[[str], Any], release: Callable[[], None]) -> None:
    """Stop every part with one line each; a second Ctrl-C (or SIGTERM) kills everything at once
    (`release` still clears the state file, so `status` knows it ended)."""

    def kill_now(*_: object) -> None:
        cloud.kill()
        release()
        echo("killed")
        os._exit(130)

    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, kill_now)
    echo("\nstopping the local cloud (Ctrl-C again kills it at once) ...")
    cloud.stop(report=lambda line: echo(f"  {line}"))


def describe_stale(work_dir: Path, state: dict[str, Any]) -> str:
    """One line about a crashed run's state file (removed now), and what of it still listens."""
    urls = [str(state[k]) for k in ("api_url", "dynamodb_endpoint", "moto_endpoint") if state.get(k)]
    alive = [url for url in urls if _answers(url)]
    (work_dir / "cloud.json").unlink(missing_ok=True)
    left = f"; still listening: {', '.join(alive)}" if alive else ""
    return (
        f"no local cloud runs: the one started as pid {state.get('pid')} ({state.get('api_url')}) "
        f"ended without stopping; its state is cleared{left}. Start one with `make run`"
    )


def _answers(url: str) -> bool:
    host, _, port = url.removeprefix("http://").partition(":")
    try:
        socket.create_connection((host, int(port)), timeout=0.5).close()
    except OSError:
        return False
    return True
