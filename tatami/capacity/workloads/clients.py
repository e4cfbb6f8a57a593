"""A bulk loader in the model, calling through an SDK client (`sdk`), and what any client counts.

(`arrivals` has the open-loop clients: steady arrivals and recorded calls.)

- `BatchLoader`: a bulk loader: `workers` threads sharing one SDK client, each sending
  BatchWriteItem calls of 25 items and waiting for the answer (the client's latency). A call
  DynamoDB could take none of is a throttling error, retried by the SDK (its retry mode); one
  that took some returns the rest as unprocessed items, which the application sends again
  (`AppRetry`: boto3's batch_writer resends them with the next new items at once; tatami's
  loader backs off first). When the SDK gives up, the error reaches the application, which backs
  off as it does for unprocessed items.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Protocol

from tatami.capacity.model.engine import Client, Request, Simulation
from tatami.capacity.workloads.outcomes import Outcome
from tatami.capacity.workloads.sdk import SdkClient

__all__ = ["BATCH", "BATCH_WRITER", "AppRetry", "BatchLoader", "CallStats", "Caller"]

BATCH = 25  # BatchWriteItem's limit, and boto3 batch_writer's flush size


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
    errors: int = 0  # throttling errors returned: the SDK gave up, or would not retry (a transaction)
    gave_up: int = 0  # requests abandoned (open loop: attempts exhausted; loader: past AppRetry.attempts)
    failed: int = 0  # writes refused for good (an item collection at its size limit)
    finished: float = 0.0


class Caller(Client, Protocol):
    """A client calling through an SDK client and counting what it saw (every client here).

    `outcomes`: per operation, what open-loop callers saw (a loader's threads resend until done: none).
    """

    stats: CallStats
    sdk: SdkClient
    outcomes: dict[str, Outcome]


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
        self.outcomes: dict[str, Outcome] = {}
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
