"""The template's alarms, evaluated by the local cloud as CloudWatch evaluates them in AWS.

`Alarms.refresh()` samples what is sampled (queue depths, the throttles the functions logged),
evaluates every alarm at the clock's now (`alarm_eval.py`) and logs each alarm that goes into or out
of ALARM; a background thread refreshes every few seconds while the cloud runs. `states()` is the one
view of them: `tatami local status`, `tatami local alarms` and the control endpoint (GET /alarms) show
it. Changes between OK and INSUFFICIENT_DATA (a quiet stream consumer has no iterator age) are not
logged: they are no news to an operator.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tatami.local.cloudwatch.alarm_eval import ALARM, INSUFFICIENT_DATA, Verdict, evaluate
from tatami.local.cloudwatch.alarm_specs import AlarmSpec, MetricStat
from tatami.local.cloudwatch.metrics import MetricStore

__all__ = ["AlarmState", "Alarms"]


@dataclass
class AlarmState:
    spec: AlarmSpec
    state: str = INSUFFICIENT_DATA
    reason: str = "not evaluated yet"
    since: float = 0.0  # on the local cloud's clock

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.spec.name,
            "state": self.state,
            "reason": self.reason,
            "since": round(self.since, 3),
            "watches": self.spec.describe(),
        }


class Alarms:
    """Every alarm's state, refreshed from `store` after running each of `samplers`."""

    def __init__(
        self,
        specs: Sequence[AlarmSpec],
        store: MetricStore,
        samplers: Sequence[Callable[[], None]] = (),
        log: Callable[[str], None] = lambda _line: None,
    ) -> None:
        self.specs = list(specs)
        self.store = store
        self.samplers = list(samplers)
        self.log = log
        self._states = {spec.name: AlarmState(spec) for spec in specs}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._evaluated = False

    def refresh(self) -> list[dict[str, Any]]:
        """Sample, evaluate every alarm now, log the changes; the states."""
        with self._lock:
            for sample in self.samplers:
                sample()
            now = self.store.clock.now()
            for alarm in self._states.values():
                verdict = evaluate(alarm.spec, self._values, now, alarm.state)
                if verdict.state != alarm.state:
                    self._log_change(alarm, verdict)
                    alarm.state, alarm.since = verdict.state, now
                alarm.reason = verdict.reason
            if not self._evaluated:
                self._evaluated = True
                counts = Counter(alarm.state for alarm in self._states.values())
                self.log(f"{len(self._states)} alarms evaluated: {dict(sorted(counts.items()))}")
        return self.states()

    def states(self) -> list[dict[str, Any]]:
        """Each alarm's name, state, reason, since when and what it watches, ALARM first."""
        alarms = sorted(self._states.values(), key=lambda a: (a.state != ALARM, a.spec.name))
        return [alarm.to_json() for alarm in alarms]

    def state(self, name: str) -> str:
        return self._states[name].state

    def start(self, interval: float) -> None:
        self._thread = threading.Thread(target=self._run, args=(interval,), name="alarms", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def _run(self, interval: float) -> None:
        while not self._stop.wait(interval):
            try:
                self.refresh()
            except Exception as exc:  # noqa: BLE001 - keep evaluating; the log says why one round failed
                self.log(f"alarm evaluation failed: {type(exc).__name__}: {exc}")

    def _values(self, metric: MetricStat, start: float, end: float) -> list[float]:
        return self.store.values(metric.namespace, metric.name, dict(metric.dimensions), start, end)

    def _log_change(self, alarm: AlarmState, verdict: Verdict) -> None:
        if ALARM in (alarm.state, verdict.state):
            self.log(f"{alarm.spec.name}: {alarm.state} -> {verdict.state}: {verdict.reason}")
