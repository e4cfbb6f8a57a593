"""Open-loop clients: requests offered at set times, whoever else is waiting (`callers` serves them).

- `Arrivals`: streams of requests at their rates (steady, or a `Schedule` of steps), each request
  one of its stream's choices at random (a counter's increments on random shards, reads of random
  items, transactions...);
- `Timed`: requests at recorded times (traffic the local cloud saw).

Arrivals come in groups every `tick` seconds. Once a group holds many arrivals per choice, each
choice's count is drawn from the normal approximation of its binomial share instead of one draw
per arrival: the same mean and spread (a shard at its partition's limit still overflows it
about half the time), at a cost that no longer grows with the rate.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence

from tatami.capacity.model.engine import Request, Simulation
from tatami.capacity.workloads.callers import TICK, Callers, Stream
from tatami.capacity.workloads.schedule import Schedule
from tatami.capacity.workloads.sdk import SdkClient

__all__ = ["TICK", "Arrivals", "Stream", "Timed"]

MANY = 20  # arrivals per choice in a group from which counts are drawn per choice, not per arrival
RECORDED = "recorded calls"


class _OpenLoop:
    """Requests offered by independent callers (`callers.Callers`), retried as each caller's SDK does."""

    def __init__(self, sdk: SdkClient, seed: int, tick: float = TICK) -> None:
        self.sdk, self.tick = sdk, tick
        self.callers = Callers(sdk, seed, tick)
        self.stats, self.outcomes = self.callers.stats, self.callers.outcomes

    def next_time_after(self, arrival: float | None) -> float | None:
        """The earlier of the next `arrival` and the callers' next event (either may be None: none left)."""
        event = self.callers.next_event()
        if arrival is None or event is None:
            return arrival if event is None else event
        return min(arrival, event)

    def finished(self) -> float:
        return self.stats.finished


class Arrivals(_OpenLoop):
    """`rate` requests a second for `seconds`, each one of `choices` picked uniformly at random.

    `Arrivals.of(streams, ...)` offers several streams at once, each at its own schedule.
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
        self._setup([Stream("requests", list(choices), Schedule.steady(rate))], seconds, sdk, seed, tick)

    @classmethod
    def of(
        cls, streams: Sequence[Stream], seconds: float, sdk: SdkClient, seed: int = 0, tick: float = TICK
    ) -> Arrivals:
        if not streams or any(not stream.choices for stream in streams) or seconds <= 0 or tick <= 0:
            raise ValueError("arrivals need streams with choices, a positive duration and tick")
        arrivals = cls.__new__(cls)
        arrivals._setup(list(streams), seconds, sdk, seed, tick)
        return arrivals

    def _setup(self, streams: list[Stream], seconds: float, sdk: SdkClient, seed: int, tick: float) -> None:
        _OpenLoop.__init__(self, sdk, seed, tick)
        self.streams, self._end = streams, seconds
        self._pick = random.Random(seed)
        self._ticks_done, self._carry = 0, [0.0] * len(streams)

    def _arrival_time(self) -> float | None:
        at = self._ticks_done * self.tick
        return at if at < self._end - 1e-9 else None

    def next_time(self) -> float | None:
        return self.next_time_after(self._arrival_time())

    def act(self, sim: Simulation, now: float) -> None:
        arrival = self._arrival_time()
        if arrival is not None and arrival <= now:
            self._ticks_done += 1
            end = min(arrival + self.tick, self._end)
            counts = []
            for number, stream in enumerate(self.streams):
                wanted = stream.schedule.mean(arrival, end) * (end - arrival) + self._carry[number]
                counts.append(int(wanted))
                self._carry[number] = wanted - counts[-1]
            self.callers.arriving(now, sum(counts))
            offer = self.callers.offer
            for stream, arrivals in zip(self.streams, counts, strict=True):
                choices = stream.choices
                for index, count in self._spread(len(choices), arrivals):
                    if count:
                        offer(sim, stream, choices[index], count, now)
        self.callers.act_due(sim, now)

    def _spread(self, choices: int, arrivals: int) -> list[tuple[int, int]]:
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
        self._stream = Stream(RECORDED, [], Schedule.steady(1.0))

    def next_time(self) -> float | None:
        return self.next_time_after(self._events[self._next][0] if self._next < len(self._events) else None)

    def act(self, sim: Simulation, now: float) -> None:
        events = self._events
        while self._next < len(events) and events[self._next][0] <= now:
            _, request, count = events[self._next]
            self.callers.arriving(now, count)
            self.callers.offer(sim, self._stream, request, count, now)
            self._next += 1
        self.callers.act_due(sim, now)
