"""An engine that dies is noticed within a second, said in one line, and restarted, or the local
cloud stops cleanly.

DynamoDB Local and moto run as child processes (`engines`). Nothing else notices one dying (a JVM
the kernel's OOM killer took, a stray `kill -9`): the functions would answer 503 for ever and the
stream triggers sit idle. The watchdog polls each engine's process twice a second. An engine
keeping its data in a folder (`--db-path`: DynamoDB Local's tables, moto's objects, messages and
secrets) comes back on the same port with that data, and the functions and stream triggers
reconnect on their own. An engine whose data lived in memory cannot come back as it was (every
table, item and stream gone), so the cloud stops with the reason rather than serve an empty world
that looks alive; so does an engine that keeps dying (3 restarts within a minute) or cannot be
started again.

What a restart keeps is what the engine had committed, which is every write a function was told
succeeded: moto writes its file before its answer (`moto_state`), DynamoDB Local commits a
single-item write before its answer, and a transaction's answer waits for its COMMIT
(`commit_barrier`: DynamoDB Local itself answers before it). docs/local-cloud.md gives the
measurement (bench/dynamodb_kill_durability.py).
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path

from tatami.local.engines.processes import (
    DYNAMODB_LOCAL,
    MOTO,
    Engine,
    EngineError,
    start_dynamodb_local,
    start_moto,
)

__all__ = ["EngineWatch", "how_it_ended"]

MAX_RESTARTS, RESTART_WINDOW_SECONDS = 3, 60.0


class EngineWatch:
    """Polls `engines` (a list the cloud keeps; a restarted engine takes its predecessor's place).

    `db_path`: DynamoDB Local's data folder (None: in memory); `logs`: where a restarted engine
    logs; `say(line)`: the cloud's log; `lost(reason)`: stop the cloud, for `reason`.
    """

    def __init__(
        self,
        engines: list[Engine],
        db_path: Path | None,
        logs: Path,
        say: Callable[[str], None],
        lost: Callable[[str], None],
        interval: float = 0.5,
    ) -> None:
        self.engines, self.db_path, self.logs = engines, db_path, logs
        self.say, self.lost, self.interval = say, lost, interval
        self.restarts: dict[str, list[float]] = {}
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="engine-watch", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Stop watching (before the cloud stops its engines on purpose)."""
        self._stopped.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join()

    def _watch(self) -> None:
        while not self._stopped.wait(self.interval):
            for index, engine in enumerate(list(self.engines)):
                code = engine.process.poll() if engine.process is not None else None
                dead = code is not None and not engine.stopped and not self._stopped.is_set()
                if dead and not self._revive(index, engine, code or 0):
                    return

    def _revive(self, index: int, engine: Engine, code: int) -> bool:
        """Restart a dead engine in place; False (and `lost` told why) when it cannot come back."""
        died = f"{engine.name} on {engine.endpoint} {how_it_ended(code)}"
        now = time.monotonic()
        recent = [t for t in self.restarts.get(engine.name, []) if now - t < RESTART_WINDOW_SECONDS]
        if engine.name not in (DYNAMODB_LOCAL, MOTO) or self.db_path is None:
            self.lost(
                f"{died}; its data was in memory and is gone, so the local cloud stops "
                "(start it again; --db-path keeps the engines' data across a restart)"
            )
            return False
        if len(recent) >= MAX_RESTARTS:
            self.lost(f"{died} again: {len(recent)} restarts within a minute, so the local cloud stops")
            return False
        self.say(f"{died}; restarting it with its data")
        try:
            revived = self._start_again(engine)
        except EngineError as exc:
            reason = str(exc).splitlines()[0]
            self.lost(f"{engine.name} did not start again ({reason}), so the local cloud stops")
            return False
        self.engines[index] = revived
        self.restarts[engine.name] = [*recent, now]
        self.say(f"{engine.name} is back on {revived.endpoint} after {time.monotonic() - now:.1f} s")
        return True

    def _start_again(self, engine: Engine) -> Engine:
        assert self.db_path is not None
        if engine.name == MOTO:
            return start_moto(engine.port, self.logs / "moto.log", self.db_path)
        return start_dynamodb_local(engine.port, self.logs / "dynamodb-local.log", self.db_path)


def how_it_ended(code: int) -> str:
    """A process's exit status in words.

    >>> how_it_ended(-9), how_it_ended(1)
    ('was killed by SIGKILL', 'exited with code 1')
    """
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with code {code}"
