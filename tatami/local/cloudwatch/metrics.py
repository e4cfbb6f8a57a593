"""The local cloud's CloudWatch: a clock, and the datapoints of every metric it sees.

Metrics are identified as CloudWatch identifies them (namespace, name and the exact set of dimensions)
and each datapoint is stamped with the local cloud's clock. That clock is the machine's, plus whatever
a test skipped with `advance`: alarms whose periods are minutes are evaluated in a test by skipping
the minutes, never by shortening the template's periods. What skipping means for the rest of the
cloud (stream records get older) is in `streams.py`.

>>> store = MetricStore(LocalClock())
>>> store.put("AWS/Lambda", "Errors", {"FunctionName": "f"}, 1.0, at=60.0)
>>> store.values("AWS/Lambda", "Errors", {"FunctionName": "f"}, 0.0, 120.0)
[1.0]
"""

from __future__ import annotations

import bisect
import threading
import time
from collections.abc import Mapping

__all__ = ["MAX_DATAPOINTS", "RETENTION_SECONDS", "LocalClock", "MetricKey", "MetricStore"]

# CloudWatch evaluates at most a day of periods; one more hour covers the longest period. Memory is
# bounded too: a metric keeps its newest MAX_DATAPOINTS (a load test's requests per 5-minute period).
RETENTION_SECONDS = 86_400 + 3_600
MAX_DATAPOINTS = 100_000
MetricKey = tuple[str, str, frozenset[tuple[str, str]]]


class LocalClock:
    """The machine's time plus the seconds `advance` skipped (thread-safe).

    >>> clock = LocalClock()
    >>> before = time.time()
    >>> clock.advance(600)
    >>> clock.reading_at(before) == before, clock.reading_at(time.time() + 1) > before + 600
    (True, True)
    >>> clock.from_machine(1_000), clock.to_machine(1_600), LocalClock().from_machine(1_000)
    (1600.0, 1000.0, 1000)
    """

    def __init__(self) -> None:
        self._offset = 0.0
        self._advances: list[tuple[float, float]] = []  # (machine time, offset from then on)
        self._lock = threading.Lock()

    @property
    def offset(self) -> float:
        """Seconds this clock is ahead of the machine's: a time read from the machine plus this is
        the same instant on this clock."""
        return self._offset

    def now(self) -> float:
        return time.time() + self._offset

    def advance(self, seconds: float) -> None:
        """Let `seconds` pass at once (tests): alarms see the periods go by, stream records age."""
        if seconds < 0:
            raise ValueError(f"a clock only moves forward: advance({seconds})")
        with self._lock:
            self._offset += seconds
            self._advances.append((time.time(), self._offset))

    def from_machine(self, machine_seconds: float) -> float:
        """A time the machine's clock gives now (a stream record read now) on this clock: every second
        skipped so far counts, unlike `reading_at`'s. Unchanged (an int stays an int) when none was."""
        offset = self._offset
        return machine_seconds + offset if offset else machine_seconds

    def to_machine(self, seconds: float) -> float:
        """A time on this clock as the machine's clock gives it (what a function is handed), so a record
        is as old to the function as it is on this clock."""
        offset = self._offset
        return seconds - offset if offset else seconds

    def reading_at(self, machine_seconds: float) -> float:
        """What this clock read at an instant of the machine's clock (a time a file or message
        carries): the seconds skipped before that instant count, later ones not."""
        with self._lock:
            position = bisect.bisect_right(self._advances, (machine_seconds, float("inf")))
            return machine_seconds + (self._advances[position - 1][1] if position else 0.0)


def metric_key(namespace: str, name: str, dimensions: Mapping[str, str]) -> MetricKey:
    return namespace, name, frozenset(dimensions.items())


class MetricStore:
    """Datapoints per metric, in time order; bounded to RETENTION_SECONDS of the clock and to
    MAX_DATAPOINTS per metric."""

    def __init__(self, clock: LocalClock) -> None:
        self.clock = clock
        self._series: dict[MetricKey, tuple[list[float], list[float]]] = {}  # key -> (times, values)
        self._lock = threading.Lock()

    def put(
        self, namespace: str, name: str, dimensions: Mapping[str, str], value: float, at: float | None = None
    ) -> None:
        """Add a datapoint, at `at` on the clock (default: now)."""
        at = self.clock.now() if at is None else at
        with self._lock:
            times, values = self._series.setdefault(metric_key(namespace, name, dimensions), ([], []))
            position = bisect.bisect_right(times, at)
            times.insert(position, at)
            values.insert(position, float(value))
            if times[0] < at - RETENTION_SECONDS or len(times) > MAX_DATAPOINTS:
                cut = max(bisect.bisect_left(times, at - RETENTION_SECONDS), len(times) - MAX_DATAPOINTS)
                del times[:cut], values[:cut]

    def values(
        self, namespace: str, name: str, dimensions: Mapping[str, str], start: float, end: float
    ) -> list[float]:
        """The datapoints' values with start <= time < end."""
        with self._lock:
            times, values = self._series.get(metric_key(namespace, name, dimensions), ([], []))
            return values[bisect.bisect_left(times, start) : bisect.bisect_left(times, end)]

    def names(self) -> list[MetricKey]:
        """Every metric seen so far (for `tatami local status` and tests)."""
        with self._lock:
            return list(self._series)
