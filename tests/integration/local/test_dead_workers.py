"""A function's execution environment that died while idle is never handed a request (it would be
API Gateway's 502): the pool forgets it and starts another."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from tatami.local.functions.pool import FunctionPool
from tests.integration.local.test_sandbox import pool, spec

HANDLER = "import os\n\n\ndef handler(event, context):\n    return os.getpid()\n"


def _idle_pids(functions: FunctionPool) -> list[int]:
    return [worker.process.pid for worker in functions._idle]


def test_idle_workers_killed_are_never_handed_a_request(tmp_path: Path) -> None:
    asset = tmp_path / "asset"
    asset.mkdir()
    (asset / "app.py").write_text(HANDLER)
    lines: list[str] = []
    functions = pool(tmp_path, spec(asset, "app.handler"))
    functions._log_sink = lambda _name, line: lines.append(line)
    try:
        functions.warm()
        for _kill in range(3):
            (dead,) = _idle_pids(functions)
            os.kill(dead, signal.SIGKILL)
            os.waitid(os.P_PID, dead, os.WEXITED | os.WNOWAIT)  # dead now, not yet reaped by the pool
            invocation = functions.invoke({})
            assert invocation.ok, invocation.error
            assert invocation.result != dead
        assert sum("an idle execution environment was killed by SIGKILL" in line for line in lines) == 3
    finally:
        functions.close()
