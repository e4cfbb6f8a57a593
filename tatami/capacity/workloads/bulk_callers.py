"""Open-loop callers in bulk: environments (Lambda functions) whose clients keep no state that matters.

An environment serves one request at a time with a client of its own. Until it is throttled its
client's state is a new one's (a full retry quota; in adaptive mode, a limiter botocore has not
switched on), so such environments are interchangeable: counted, and their requests admitted in
bulk, whatever the rate. The legacy retry mode keeps no state in a client (no quota, no limiter,
no jitter), and a standard environment's quota is not tracked (it runs dry only after about a
hundred throttled retries without a success in one environment): their throttled copies sleep their
backoff in at most `SPREAD` groups and come back in bulk on the client's ticks. A transaction
throttled is answered TransactionCanceledException, which no retry mode retries
(`SdkClient.retries`): its request fails at once. Every request's outcome is filed under its
operation (`outcomes.Outcome`). `callers.Callers` adds the environments adaptive mode marks.
"""

from __future__ import annotations

import heapq
import math
import random
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tatami.capacity.model.engine import Request, Simulation
from tatami.capacity.workloads.clients import CallStats
from tatami.capacity.workloads.outcomes import Outcome
from tatami.capacity.workloads.schedule import Schedule
from tatami.capacity.workloads.sdk import ADAPTIVE, TRANSACTION_CANCELED, SdkClient

__all__ = ["BULK", "FREE", "SEND", "SPREAD", "TICK", "BulkCallers", "Stream"]

TICK = 0.05  # seconds between an open-loop client's groups of arrivals (and bulk retries' ticks)
SPREAD = 8  # throttled copies sleep their backoff in at most this many groups (each its own delay)
SEND, FREE, BULK = 0, 1, 2  # events: a cohort (re)sends, a cohort is done, bulk copies are due


@dataclass(frozen=True)
class Stream:
    """One kind of operation: its name, the requests it picks from, its rate, whether it is a transaction."""

    name: str
    choices: Sequence[Request]
    schedule: Schedule
    transactional: bool = False  # a throttled transaction is cancelled, not retried by the SDK


class BulkCallers:
    """The interchangeable environments of an open-loop workload; `offer` makes requests, `act_due` runs
    what is due. `_mark` and `_act` are where `callers.Callers` keeps the environments it marks."""

    def __init__(self, sdk: SdkClient, seed: int = 0, tick: float = TICK) -> None:
        self.sdk, self.tick, self.stats = sdk, tick, CallStats()
        self.outcomes: dict[str, Outcome] = {}
        self._rng = random.Random(f"callers:{seed}")
        self._stateful = sdk.config.mode == ADAPTIVE and sdk.attempts > 1  # its environments get marked
        self._cancelled_retried = sdk.retries(TRANSACTION_CANCELED)
        self._fresh, self._busy, self._fresh_busy = 0, 0, deque[tuple[float, int]]()
        self._marked = 0  # environments with a state of their own
        self._events: list[tuple[Any, ...]] = []
        self._seq = 0
        self._due: dict[int, dict[tuple[Any, ...], list[Any]]] = {}  # tick -> key -> [copies, mean t0, ...]
        self._recent: deque[tuple[float, int]] = deque()  # (time, requests) over the last second
        self._recent_total = 0

    def outcome(self, stream: Stream) -> Outcome:
        found = self.outcomes.get(stream.name)
        return found if found is not None else self.outcomes.setdefault(stream.name, Outcome())

    def arriving(self, now: float, count: int) -> None:
        """`count` requests arrive now (before their `offer`s): environments that finished become idle."""
        self._recent.append((now, count))
        self._recent_total += count
        while self._recent[0][0] <= now - 1.0:
            self._recent_total -= self._recent.popleft()[1]
        while self._fresh_busy and self._fresh_busy[0][0] <= now:
            self._busy -= self._fresh_busy.popleft()[1]

    def offer(self, sim: Simulation, stream: Stream, request: Request, count: int, now: float) -> None:
        """`count` new requests now, on pristine environments (Lambda starts what it needs)."""
        if self._stateful and self._busy + count > self._fresh:
            self._fresh = self._busy + count
        self._bulk(sim, stream, request, count, 1, now, now)

    def _bulk(
        self,
        sim: Simulation,
        stream: Stream,
        request: Request,
        count: int,
        attempt: int,
        t0: float,
        now: float,
    ) -> None:
        """Requests on pristine environments (or stateless ones), admitted together: the hot path."""
        stats, answered = self.stats, now + self.sdk.latency
        outcome = self.outcomes.get(stream.name) or self.outcome(stream)
        stats.calls += count
        accepted = sim.admit(request, count)
        if answered > stats.finished:
            stats.finished = answered
        if accepted:
            outcome.answered(accepted, answered - t0)
        done, refused = accepted, sim.refused
        if accepted < count:
            if refused:
                stats.failed += refused
                outcome.gave_up(refused, answered - t0)
            throttled = count - accepted - refused
            stats.throttled_calls += throttled
            outcome.throttled += throttled
            done += refused + self._bulk_throttled(stream, request, throttled, attempt, t0, answered)
        if done and self._stateful:
            self._fresh_busy.append((answered, done))
            self._busy += done

    def _bulk_throttled(
        self, stream: Stream, request: Request, throttled: int, attempt: int, t0: float, answered: float
    ) -> int:
        """Throttled copies on pristine environments: failed, retried in bulk, or marked as one cohort.

        Returns how many of their environments are free once answered (the rest still work on them).
        """
        if self._cancelled(stream):
            self.stats.errors += throttled  # the application gets TransactionCanceledException
            self.outcome(stream).gave_up(throttled, answered - t0)
            return throttled
        if not self._stateful:  # no state that matters: retried in bulk, or not at all
            self._bulk_retry(stream, request, throttled, attempt, t0, answered)
            return 0
        self._fresh -= throttled
        self._marked += throttled
        self._mark(stream, request, throttled, attempt, t0, answered)
        return 0

    def _mark(
        self, stream: Stream, request: Request, count: int, attempt: int, t0: float, answered: float
    ) -> None:
        """`count` pristine environments throttled at `attempt`: from now on each has a state of its own."""
        raise NotImplementedError("only adaptive mode marks environments: callers.Callers")

    def _bulk_retry(
        self, stream: Stream, request: Request, count: int, attempt: int, t0: float, answered: float
    ) -> None:
        """Copies whose clients keep no state that matters: each sleeps its own share of the backoff (in
        at most `SPREAD` groups; legacy: all the same fixed one) and they come back in bulk."""
        ceilings, stats = self.sdk.ceilings, self.stats
        if attempt > len(ceilings):
            stats.errors += count
            stats.gave_up += count
            self.outcome(stream).gave_up(count, answered - t0)
            return
        stats.retries += count
        self.outcome(stream).retries += count
        ceiling, jitter, key = ceilings[attempt - 1], self.sdk.jitter, (stream.name, id(request), attempt + 1)
        for size in (count // SPREAD + (n < count % SPREAD) for n in range(min(SPREAD, count))):
            tick = math.ceil((answered + jitter() * ceiling) / self.tick - 1e-9)
            due = self._due.get(tick)
            if due is None:
                due = self._due[tick] = {}
                self._push(tick * self.tick, BULK, tick)
            pending = due.get(key)
            if (
                pending is not None
            ):  # copies due in the same tick go out together, timed from their mean arrival
                pending[1] = (pending[1] * pending[0] + t0 * size) / (pending[0] + size)
                pending[0] += size
            else:
                due[key] = [size, t0, stream, request]

    def _cancelled(self, stream: Stream) -> bool:
        """A throttled request of this stream fails at once (a transaction, which no retry mode retries)."""
        return stream.transactional and not self._cancelled_retried

    def _push(self, at: float, kind: int, *event: Any) -> None:
        self._seq += 1
        heapq.heappush(self._events, (at, self._seq, kind, *event))

    def next_event(self) -> float | None:
        return self._events[0][0] if self._events else None

    def act_due(self, sim: Simulation, now: float) -> None:
        """Run every event due by `now`: bulk retries, and marked environments' calls and frees."""
        events = self._events
        while events and events[0][0] <= now + 1e-9:
            _, _, kind, *event = heapq.heappop(events)
            if kind == BULK:  # a tick's throttled copies of stateless clients, each group at once
                for (_, _, attempt), (count, t0, stream, request) in self._due.pop(event[0]).items():
                    self._bulk(sim, stream, request, count, attempt, t0, now)
            else:
                self._act(sim, kind, event, now)

    def _act(self, sim: Simulation, kind: int, event: list[Any], now: float) -> None:
        """A marked environment's event (`callers.Callers`)."""
        raise NotImplementedError("only adaptive mode marks environments: callers.Callers")
