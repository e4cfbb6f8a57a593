"""Open-loop clients: requests offered at set times by callers that each have their own SDK client.

- `Arrivals`: requests at a steady rate, each one of `choices` at random (a counter's increments
  on random shards, reads of random items), from many callers (Lambda functions);
- `Timed`: requests at recorded times (traffic the local cloud saw).

A throttled request is retried after the SDK's delay (`sdk.SdkClient.own_client_delay`) until its
attempts run out; what the callers' SDKs give up on reaches the application as an error.
"""

from __future__ import annotations

import heapq
import math
import random
from collections import Counter
from collections.abc import Sequence

from tatami.capacity.model.engine import Request, Simulation
from tatami.capacity.workloads.clients import CallStats
from tatami.capacity.workloads.sdk import SdkClient

__all__ = ["TICK", "Arrivals", "Timed"]

TICK = 0.05  # seconds between an open-loop client's groups of arrivals
SPREAD = 8  # throttled copies of one request retry in at most this many groups (each its own delay)
MANY = 20  # arrivals per choice in a group from which counts are drawn per choice, not per arrival


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

    def next_time_after(self, arrival: float | None) -> float | None:
        """The earlier of the next `arrival` and the next retry (either may be None: none left)."""
        retry = self.next_retry()
        if arrival is None or retry is None:
            return arrival if retry is None else retry
        return min(arrival, retry)

    def finished(self) -> float:
        return self.stats.finished


def _groups(count: int) -> list[int]:
    """`count` throttled copies split into at most SPREAD groups, each of which draws its own delay."""
    if count <= SPREAD:
        return [1] * count
    return [count // SPREAD + (1 if index < count % SPREAD else 0) for index in range(SPREAD)]


class Arrivals(_OpenLoop):
    """`rate` requests a second for `seconds`, each one of `choices` picked uniformly at random.

    Arrivals come in groups every `tick` seconds. Once a group holds many arrivals per choice, each
    choice's count is drawn from the normal approximation of its binomial share instead of one draw
    per arrival: the same mean and spread (a shard at its partition's limit still overflows it
    about half the time), at a cost that no longer grows with the rate.
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
        return self.next_time_after(self._arrival_time())

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
        if arrivals < MANY * choices:
            return sorted(Counter(self._pick.choices(range(choices), k=arrivals)).items())
        mean = arrivals / choices
        spread = math.sqrt(mean * (1 - 1 / choices))
        gauss = self._pick.gauss
        return [(index, max(0, round(gauss(mean, spread)))) for index in range(choices)]


class Timed(_OpenLoop):
    """Offer `(time, request, count)` events (sorted by time) when the clock reaches them."""

    def __init__(self, events: Sequence[tuple[float, Request, int]], sdk: SdkClient, seed: int = 0) -> None:
        super().__init__(sdk, seed)
        self._events, self._next = events, 0

    def next_time(self) -> float | None:
        return self.next_time_after(self._events[self._next][0] if self._next < len(self._events) else None)

    def act(self, sim: Simulation, now: float) -> None:
        events = self._events
        while self._next < len(events) and events[self._next][0] <= now:
            _, request, count = events[self._next]
            self.offer(sim, request, count, 1, now)
            self._next += 1
        self.retry_due(sim, now)
