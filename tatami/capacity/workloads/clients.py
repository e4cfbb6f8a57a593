"""The ways traffic reaches a table in the model, each calling through an SDK client (`sdk`).

- `BatchLoader`: a bulk loader: `workers` threads sharing one SDK client, each sending
  BatchWriteItem calls of 25 items and waiting for the answer (the client's latency). A call
  DynamoDB could take none of is a throttling error, retried by the SDK (its retry mode); one
  that took some returns the rest as unprocessed items, which the application sends again
  (`AppRetry`: boto3's batch_writer resends them with the next new items at once; tatami's
  loader backs off first). When the SDK gives up, the error reaches the application, which backs
  off as it does for unprocessed items.
- `Arrivals`: requests at a steady rate, each one of `choices` at random (a counter's increments
  on random shards), from many callers (Lambda functions), each with its own SDK client: a
  throttled request is retried after the SDK's delay until its attempts run out.
- `Timed`: requests at recorded times (traffic the local cloud saw), retried the same way.
"""

from __future__ import annotations

import heapq
import math
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Protocol

from tatami.capacity.model.engine import Client, Request, Simulation
from tatami.capacity.workloads.sdk import SdkClient

__all__ = ["BATCH_WRITER", "AppRetry", "Arrivals", "BatchLoader", "CallStats", "Caller", "Timed"]

BATCH = 25  # BatchWriteItem's limit, and boto3 batch_writer's flush size
TICK = 0.05  # seconds between an open-loop client's groups of arrivals
SPREAD = 8  # throttled copies of one request retry in at most this many groups (each its own delay)


@dataclass(frozen=True, slots=True)
class AppRetry:
    """What the application does with unprocessed items and with errors the SDK gave up on.

    `refill`: resend unprocessed items at once with the next new ones (boto3's batch_writer);
    otherwise resend what is left after a full-jitter backoff, U(0, min(cap, base x 2^n)), where
    n counts the calls that made no progress, for at most `attempts` of them (tatami's loader).
    """

    refill: bool = True
    base: float = 0.05
    cap: float = 5.0
    attempts: int = 12

    def delay(self, failures: int, rng: random.Random) -> float:
        return 0.0 if self.refill else rng.uniform(0, min(self.cap, self.base * 2**failures))


BATCH_WRITER = AppRetry()


@dataclass
class CallStats:
    """What the application saw: calls sent, calls throttled, errors the SDK let through."""

    calls: int = 0
    throttled_calls: int = 0  # calls answered with a throttling error (retried or not)
    retries: int = 0  # calls the SDK sent again
    errors: int = 0  # throttling errors the SDK gave up on (the application saw them)
    gave_up: int = 0  # requests abandoned (open loop: attempts exhausted; loader: past AppRetry.attempts)
    failed: int = 0  # writes refused for good (an item collection at its size limit)
    finished: float = 0.0


class Caller(Client, Protocol):
    """A client calling through an SDK client and counting what it saw (every client here)."""

    stats: CallStats
    sdk: SdkClient


@dataclass
class _Worker:
    number: int
    batch: list[Request] = field(default_factory=list)
    attempt: int = 1  # the SDK's attempt number of the call in flight
    failures: int = 0  # the application's calls without progress, in a row
    context: dict[str, Any] = field(default_factory=dict)  # the call's retry context (quota)


class BatchLoader:
    """Write `requests` in order, 25 at a time, with `workers` threads sharing one SDK client."""

    def __init__(
        self, requests: Iterable[Request], sdk: SdkClient, workers: int = 1, app: AppRetry = BATCH_WRITER
    ) -> None:
        if workers < 1:
            raise ValueError(f"workers {workers} must be at least 1")
        self._pending: Iterator[Request] = iter(requests)
        self.sdk, self.app, self.stats = sdk, app, CallStats()
        self._rng = random.Random(f"app:{workers}")
        self._queue = [(0.0, n, _Worker(n)) for n in range(workers)]
        self._busy = 0  # workers still writing

    def next_time(self) -> float | None:
        return self._queue[0][0] if self._queue else None

    def finished(self) -> float:
        return self.stats.finished

    def act(self, sim: Simulation, now: float) -> None:
        _, _, worker = heapq.heappop(self._queue)
        if self.app.refill or not worker.batch:
            worker.batch += islice(self._pending, BATCH - len(worker.batch))
        if not worker.batch:
            self.stats.finished = max(self.stats.finished, now)
            return  # this thread is done
        at = self.sdk.send_at(now)
        if at > now:
            self._later(worker, at)
            return
        self._call(sim, worker, now)

    def _call(self, sim: Simulation, worker: _Worker, now: float) -> None:
        stats, answered = self.stats, now + self.sdk.latency
        stats.calls += 1
        kept = []
        for request in worker.batch:
            if not sim.admit(request):
                if sim.refused:
                    stats.failed += 1
                else:
                    kept.append(request)
        progress = len(kept) < len(worker.batch)
        stats.finished = max(stats.finished, answered)
        if not progress and kept:  # nothing landed: DynamoDB answers with a throttling error
            stats.throttled_calls += 1
            delay = self.sdk.retry_delay(worker.attempt, worker.context, now)
            if delay is not None:
                stats.retries += 1
                worker.attempt += 1
                self._later(worker, answered + delay)
                return
            stats.errors += 1
        else:
            self.sdk.succeeded(worker.context, now)
        wait = self.app.delay(worker.failures, self._rng) if kept else 0.0
        worker.failures = 0 if progress else worker.failures + 1
        if worker.failures == self.app.attempts + 1:
            stats.gave_up += 1  # tatami's loader would stop here (StoreError); the model keeps going
        worker.attempt, worker.context, worker.batch = 1, {}, kept
        self._later(worker, answered + wait)

    def _later(self, worker: _Worker, at: float) -> None:
        heapq.heappush(self._queue, (at, worker.number, worker))


class _OpenLoop:
    """Requests offered at given times by independent callers; the throttled ones retried by the SDK.

    Retries fall due on the client's ticks (at most 50 ms late), so the copies of one request
    that come due in the same tick are offered together.
    """

    def __init__(self, sdk: SdkClient, seed: int, tick: float = TICK) -> None:
        self.sdk, self.stats, self.tick = sdk, CallStats(), tick
        self._due: dict[int, Counter[tuple[Request, int]]] = {}  # tick -> (request, attempt) -> copies
        self._ticks: list[int] = []

    def offer(self, sim: Simulation, request: Request, count: int, attempt: int, now: float) -> None:
        stats, answered = self.stats, now + self.sdk.latency
        stats.calls += count
        throttled = count - sim.admit(request, count) - sim.refused
        if sim.refused:
            stats.failed += sim.refused
        if answered > stats.finished:
            stats.finished = answered
        if throttled:
            stats.throttled_calls += throttled
            self._retry(request, throttled, attempt, answered)

    def _retry(self, request: Request, throttled: int, attempt: int, answered: float) -> None:
        """Schedule what the callers' SDKs send again, or count what they give up on."""
        stats = self.stats
        for size in _groups(throttled):
            delay = self.sdk.own_client_delay(attempt)
            if delay is None:
                stats.errors += size
                stats.gave_up += size
                continue
            stats.retries += size
            tick = math.ceil((answered + delay) / self.tick - 1e-9)
            due = self._due.get(tick)
            if due is None:
                due = self._due[tick] = Counter()
                heapq.heappush(self._ticks, tick)
            due[request, attempt + 1] += size

    def retry_due(self, sim: Simulation, now: float) -> None:
        while self._ticks and self._ticks[0] * self.tick <= now + 1e-9:
            for (request, attempt), count in self._due.pop(heapq.heappop(self._ticks)).items():
                self.offer(sim, request, count, attempt, now)

    def next_retry(self) -> float | None:
        return self._ticks[0] * self.tick if self._ticks else None

    def finished(self) -> float:
        return self.stats.finished


def _groups(count: int) -> list[int]:
    """`count` throttled copies split into at most SPREAD groups, each of which draws its own delay."""
    if count <= SPREAD:
        return [1] * count
    return [count // SPREAD + (1 if index < count % SPREAD else 0) for index in range(SPREAD)]


class Arrivals(_OpenLoop):
    """`rate` requests a second for `seconds`, each one of `choices` picked uniformly at random.

    Arrivals come in groups every `tick` seconds. Once a group holds several arrivals per choice,
    each choice gets its share (the remainder spread at random) instead of one draw per arrival:
    the same mean, with a cost that no longer grows with the rate.
    """

    def __init__(
        self,
        choices: Sequence[Request],
        rate: float,
        seconds: float,
        sdk: SdkClient,
        seed: int = 0,
        tick: float = TICK,
    ) -> None:
        if not choices or rate <= 0 or seconds <= 0 or tick <= 0:
            raise ValueError("arrivals need choices, a positive rate, duration and tick")
        super().__init__(sdk, seed, tick)
        self._choices, self._rate, self._end = list(choices), rate, seconds
        self._pick = random.Random(seed)
        self._ticks_done, self._carry = 0, 0.0

    def _arrival_time(self) -> float | None:
        at = self._ticks_done * self.tick
        return at if at < self._end - 1e-9 else None

    def next_time(self) -> float | None:
        arrival, retry = self._arrival_time(), self.next_retry()
        if arrival is None or retry is None:
            return arrival if retry is None else retry
        return min(arrival, retry)

    def act(self, sim: Simulation, now: float) -> None:
        arrival = self._arrival_time()
        if arrival is not None and arrival <= now:
            self._ticks_done += 1
            wanted = self._rate * self.tick + self._carry
            arrivals = int(wanted)
            self._carry = wanted - arrivals
            for index, count in self._spread(arrivals):
                self.offer(sim, self._choices[index], count, 1, now)
        self.retry_due(sim, now)

    def _spread(self, arrivals: int) -> list[tuple[int, int]]:
        choices = len(self._choices)
        if arrivals < 4 * choices:
            return sorted(Counter(self._pick.choices(range(choices), k=arrivals)).items())
        counts = [arrivals // choices] * choices
        for index in self._pick.sample(range(choices), arrivals % choices):
            counts[index] += 1
        return list(enumerate(counts))


class Timed(_OpenLoop):
    """Offer `(time, request, count)` events (sorted by time) when the clock reaches them."""

    def __init__(self, events: Sequence[tuple[float, Request, int]], sdk: SdkClient, seed: int = 0) -> None:
        super().__init__(sdk, seed)
        self._events, self._next = events, 0

    def next_time(self) -> float | None:
        event = self._events[self._next][0] if self._next < len(self._events) else None
        retry = self.next_retry()
        if event is None or retry is None:
            return event if retry is None else retry
        return min(event, retry)

    def act(self, sim: Simulation, now: float) -> None:
        events = self._events
        while self._next < len(events) and events[self._next][0] <= now:
            _, request, count = events[self._next]
            self.offer(sim, request, count, 1, now)
            self._next += 1
        self.retry_due(sim, now)
