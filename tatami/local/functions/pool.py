"""Lambda functions run locally: each function has its own pool of worker processes.

A worker is one execution environment: it imports the handler once (the init phase), keeps its
module state and environment variables across invocations (warm starts), and serves one
invocation at a time. Concurrent invocations get concurrent workers, up to `max_workers`. A
worker that exceeds the function's timeout is killed, as Lambda does, and replaced on demand; one
that died while idle (killed, out of memory) is forgotten before it could be handed a request.
"""

from __future__ import annotations

import collections
import contextlib
import json
import queue
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tatami.local.engines.watchdog import how_it_ended
from tatami.local.template.assembly import FunctionSpec

LogSink = Callable[[str, str], None]
Qualified = tuple[str, str]  # an alias's name and the version it points at: ("live", "1")
INIT_TIMEOUT_SECONDS = 20.0  # Lambda allows 10 s of init; a loaded 2-core laptop needs more
RECENT_INVOCATIONS = 50  # kept per function for the console's operations view


@dataclass(frozen=True)
class Invocation:
    """What an invocation returned: `result` when `ok`, otherwise Lambda's error object."""

    request_id: str
    ok: bool
    result: Any = None
    error: dict[str, Any] = field(default_factory=dict)
    duration_ms: float = 0.0
    max_memory_used_mb: int | None = None  # None when the worker died before it could say
    started_at: float = 0.0  # epoch seconds
    qualifier: str | None = None  # the alias it was invoked through (`live`), None when unqualified


class _WorkerGone(RuntimeError):
    pass


class Worker:
    """One `python -m tatami.local.functions.worker` process for one function."""

    def __init__(self, spec: FunctionSpec, env: Mapping[str, str], log_sink: LogSink) -> None:
        self.spec = spec
        # Bytecode goes to the local cloud's work folder, never into the asset (sandbox/enter.py).
        self.process = subprocess.Popen(
            [sys.executable, "-I", "-m", "tatami.local.functions.worker"],
            cwd=spec.code_dir,
            env=dict(env),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self._replies: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read_replies, daemon=True).start()
        threading.Thread(target=self._forward_logs, args=(log_sink,), daemon=True).start()
        try:
            self.ready = json.loads(self._next_reply(INIT_TIMEOUT_SECONDS)).get("ready", False)
        except BaseException:
            self.kill()  # an init that timed out must not keep running beside its replacement
            raise

    def invoke(
        self, event: Any, request_id: str, timeout_seconds: float, alias: Qualified | None = None
    ) -> dict[str, Any]:
        deadline_ms = int((time.time() + timeout_seconds) * 1000)
        request = {"event": event, "request_id": request_id, "deadline_ms": deadline_ms}
        if alias is not None:
            request["qualifier"], request["version"] = alias
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            raise _WorkerGone("the worker process has exited") from exc
        line = self._next_reply(timeout_seconds)
        try:
            reply: dict[str, Any] = json.loads(line)
        except ValueError:  # half a reply: the process died while writing it
            raise _WorkerGone(f"the worker exited with code {self.process.wait()} mid-reply") from None
        return reply

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()

    def close(self) -> None:
        """Let the worker finish: closing stdin ends its loop."""
        self.end_input()
        self.wait_or_kill(3.0)

    def end_input(self) -> None:
        if self.process.stdin and not self.process.stdin.closed:
            with contextlib.suppress(OSError):  # a busy worker's pipe may be mid-write elsewhere
                self.process.stdin.close()

    def wait_or_kill(self, seconds: float) -> None:
        try:
            self.process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            self.kill()

    def _next_reply(self, timeout_seconds: float) -> str:
        try:
            line = self._replies.get(timeout=timeout_seconds)
        except queue.Empty:
            raise TimeoutError(f"Task timed out after {timeout_seconds:.2f} seconds") from None
        if line is None:
            raise _WorkerGone(f"the worker process exited with code {self.process.wait()}")
        return line

    def _read_replies(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._replies.put(line)
        self._replies.put(None)

    def _forward_logs(self, log_sink: LogSink) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            log_sink(self.spec.name, line.rstrip("\n"))


class FunctionPool:
    """The execution environments of one function; `invoke` never raises for the handler's errors."""

    def __init__(self, spec: FunctionSpec, env: Mapping[str, str], log_sink: LogSink, max_workers: int = 8):
        self.spec = spec
        self._env = dict(env)
        self._log_sink = log_sink
        self._max_workers = max_workers
        self._idle: list[Worker] = []
        self._workers: set[Worker] = set()  # every live worker, idle or busy
        self._live = 0
        self._closed = False
        self._lock = threading.Condition()
        self.recent: collections.deque[Invocation] = collections.deque(maxlen=RECENT_INVOCATIONS)

    def invoke(
        self, event: Any, timeout_seconds: float | None = None, alias: Qualified | None = None
    ) -> Invocation:
        """Run one invocation, through `alias` (its name and the version it points at) when given;
        the last ones stay in `recent` (what Lambda's REPORT lines tell)."""
        invocation = self._invoke(event, timeout_seconds, alias)
        self.recent.append(invocation)
        return invocation

    def _invoke(self, event: Any, timeout_seconds: float | None, alias: Qualified | None) -> Invocation:
        request_id = str(uuid.uuid4())
        timeout = min(timeout_seconds or self.spec.timeout_seconds, self.spec.timeout_seconds)
        started, started_at = time.perf_counter(), time.time()
        try:
            worker = self._acquire()
        except (TimeoutError, _WorkerGone) as exc:
            return _failure(request_id, "Runtime.InitError", str(exc), started, started_at)
        try:
            reply = worker.invoke(event, request_id, timeout, alias)
        except TimeoutError as exc:
            self._discard(worker)
            self._log_sink(self.spec.name, f"{request_id} {exc}")
            return _failure(request_id, "Sandbox.Timedout", str(exc), started, started_at)
        except _WorkerGone as exc:
            self._discard(worker)
            return _failure(request_id, "Runtime.ExitError", str(exc), started, started_at)
        self._release(worker)
        return Invocation(
            request_id,
            bool(reply.get("ok")),
            result=reply.get("result"),
            error=reply.get("error") or {},
            duration_ms=(time.perf_counter() - started) * 1000,
            max_memory_used_mb=reply.get("max_memory_used_mb"),
            started_at=started_at,
            qualifier=alias[0] if alias else None,
        )

    def warm(self, count: int = 1) -> None:
        """Start `count` execution environments ahead of the first requests (provisioned concurrency)."""
        workers = [self._acquire() for _ in range(count)]  # held, so each start makes a new one
        for worker in workers:
            self._release(worker)

    def close(self, grace_seconds: float = 3.0) -> int:
        """End every worker: idle ones at once (stdin closed), busy ones after their invocation or
        `grace_seconds`, then SIGKILL. The number of workers ended."""
        with self._lock:
            self._closed = True
            workers, self._idle = list(self._workers), []
        for worker in workers:
            worker.end_input()
        deadline = time.monotonic() + grace_seconds
        for worker in workers:
            worker.wait_or_kill(max(0.0, deadline - time.monotonic()))
        return len(workers)

    def kill(self) -> None:
        """SIGKILL every worker now (a second Ctrl-C)."""
        for worker in list(self._workers):
            if worker.process.poll() is None:
                worker.process.kill()

    def _acquire(self) -> Worker:
        with self._lock:
            while True:
                self._bury_dead_idle()
                if self._idle or self._live < self._max_workers:
                    break
                self._lock.wait()
            if self._idle:
                return self._idle.pop()
            self._live += 1
        try:
            worker = Worker(self.spec, self._env, self._log_sink)
        except BaseException:
            with self._lock:
                self._live -= 1
                self._lock.notify()
            raise
        with self._lock:
            self._workers.add(worker)
        return worker

    def _bury_dead_idle(self) -> None:
        """Forget idle workers whose process has ended (killed, out of memory): Lambda never hands a
        request to an environment that is gone, so neither does the pool (it would be a 502).
        Called with the lock held."""
        for worker in [w for w in self._idle if w.process.poll() is not None]:
            self._idle.remove(worker)
            self._workers.discard(worker)
            self._live -= 1
            ended = how_it_ended(worker.process.returncode)
            self._log_sink(self.spec.name, f"an idle execution environment {ended}")

    def _release(self, worker: Worker) -> None:
        with self._lock:
            if not self._closed:
                self._idle.append(worker)
                self._lock.notify()
                return
        worker.close()

    def _discard(self, worker: Worker) -> None:
        worker.kill()
        with self._lock:
            self._live -= 1
            self._workers.discard(worker)
            self._lock.notify()


def _failure(request_id: str, error_type: str, message: str, started: float, started_at: float) -> Invocation:
    return Invocation(
        request_id,
        False,
        error={"errorType": error_type, "errorMessage": message},
        duration_ms=(time.perf_counter() - started) * 1000,
        started_at=started_at,
    )
