"""The ways traffic reaches a table in the model.

- `Loader`: a bulk loader that writes a list of items in order and retries what is throttled, as
  boto3's `batch_writer` does: it keeps at most `batch x writers` items outstanding, resends the
  unprocessed ones with new items, and stops for the tick when a call gets nothing through
  (DynamoDB answers such a batch with a throughput error and the SDK backs off).
- `Timed`: requests at recorded times (traffic the local cloud saw), each offered once; throttled
  requests are counted, not retried.
- `Arrivals`: requests at a steady rate, each one chosen at random among `choices` (a counter's
  increments on random shards).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from itertools import islice

from tatami.capacity.model.engine import Request, Simulation

__all__ = ["Arrivals", "Loader", "Timed"]

BATCH = 25  # BatchWriteItem's limit, and boto3 batch_writer's flush size


class Loader:
    """Write `requests` in order with `writers` batch writers; `max_rate` caps the client (items/s)."""

    def __init__(
        self, requests: Iterable[Request], writers: int = 1, batch: int = BATCH, max_rate: float | None = None
    ) -> None:
        if writers < 1 or batch < 1 or (max_rate is not None and max_rate <= 0):
            raise ValueError("writers, batch and max_rate must be positive")
        self._pending: Iterator[Request] = iter(requests)
        self._window: list[Request] = []
        self._size = batch * writers
        self._max_rate = max_rate
        self._credit = 0.0

    def step(self, sim: Simulation, now: float) -> bool:
        budget = self._budget(sim.tick)
        offered = 0  # the window's first items were offered in this tick already
        while budget > 0:
            self._fill()
            if not self._window:
                return False
            fresh = self._window[offered : offered + int(min(budget, len(self._window) - offered))]
            if not fresh:
                break  # the window is full of throttled items: they are resent next tick
            kept = [request for request in fresh if not sim.admit(request)]
            budget -= len(fresh)
            self._window[offered : offered + len(fresh)] = kept
            offered += len(kept)
            if len(kept) == len(fresh):  # nothing got through: the SDK backs off until the next tick
                break
        self._credit = budget if self._max_rate else 0.0
        return True

    def _budget(self, tick: float) -> float:
        if self._max_rate is None:
            return math.inf
        return min(self._credit, self._max_rate * tick) + self._max_rate * tick

    def _fill(self) -> None:
        if len(self._window) < self._size:
            self._window.extend(islice(self._pending, self._size - len(self._window)))


class Timed:
    """Offer `(time, request, count)` events (sorted by time) when the clock reaches them."""

    def __init__(self, events: Sequence[tuple[float, Request, int]]) -> None:
        self._events, self._next = events, 0

    def step(self, sim: Simulation, now: float) -> bool:
        events, end = self._events, now + sim.tick
        while self._next < len(events) and events[self._next][0] < end:
            _, request, count = events[self._next]
            sim.admit(request, count)
            self._next += 1
        return self._next < len(events)


class Arrivals:
    """`rate` requests a second for `seconds`, each one of `choices` picked uniformly at random."""

    def __init__(self, choices: Sequence[Request], rate: float, seconds: float, seed: int = 0) -> None:
        if not choices or rate <= 0 or seconds <= 0:
            raise ValueError("arrivals need choices, a positive rate and a positive duration")
        self._choices, self._rate, self._end = list(choices), rate, seconds
        self._rng = random.Random(seed)
        self._carry = 0.0

    def step(self, sim: Simulation, now: float) -> bool:
        wanted = self._rate * sim.tick + self._carry
        arrivals = int(wanted)
        self._carry = wanted - arrivals
        picked = Counter(self._rng.choices(range(len(self._choices)), k=arrivals))
        for index, count in sorted(picked.items()):
            sim.admit(self._choices[index], count)
        return now + sim.tick < self._end - 1e-9
