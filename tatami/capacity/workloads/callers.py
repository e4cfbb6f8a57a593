"""Open-loop callers with a state of their own: the environments adaptive mode marks, in cohorts.

An environment's client keeps, in adaptive mode, a rate limiter that botocore switches on at the
client's first throttle and never off: from then on each of the environment's calls waits for a
token of its own bucket, whose rate CUBIC sets from what this environment sent (`env_client`). So a
throttled environment is marked: it and those throttled with it form a cohort, `count` environments
whose clients are in one state, admitted together and parted when their fates differ (some
accepted, some throttled, each throttled one sleeping its own random backoff, in at most `SPREAD`
groups). New requests go to idle environments at random, to marked ones as often as their share of
the idle ones (the most recently freed first). So that a long throttled run stays cheap, cohorts
that resend the same request at the same attempt in the same tick go out together, and idle cohorts
that would act alike (`EnvClient.key`) merge: their quota is then the group's mean, their limiter
the larger part's, and their requests are timed from their mean arrival (retried requests' latencies
are within a tick or two of each one's own). The rest of the callers are `bulk_callers.BulkCallers`.
"""

from __future__ import annotations

import math
from typing import Any

from tatami.capacity.model.engine import Request, Simulation
from tatami.capacity.workloads.bulk_callers import FREE, SEND, SPREAD, TICK, BulkCallers, Stream
from tatami.capacity.workloads.env_client import Cohort, EnvClient, take
from tatami.capacity.workloads.sdk import SdkClient

__all__ = ["TICK", "Callers", "Stream"]


class Callers(BulkCallers):
    """Every environment of an open-loop workload: the pristine ones in bulk, the marked ones in cohorts."""

    def __init__(self, sdk: SdkClient, seed: int = 0, tick: float = TICK) -> None:
        super().__init__(sdk, seed, tick)
        self._idle: list[Cohort] = []  # marked, idle: the last freed last
        self._idle_envs = 0  # environments in them
        self._alike: dict[int, Cohort] = {}  # idle cohorts by `EnvClient.key`, to merge into
        self._sending: dict[tuple[int, str, int, int], Cohort] = {}  # (tick, stream, request, attempt)
        self._now = 0.0

    def offer(self, sim: Simulation, stream: Stream, request: Request, count: int, now: float) -> None:
        """`count` new requests now: to idle marked environments (at times), else to pristine ones."""
        if self._idle and self._route(count):
            taken = min(count, self._idle_envs)
            self._to_marked(sim, stream, request, taken, now)
            count -= taken
        if count:
            super().offer(sim, stream, request, count, now)

    def _mark(
        self, stream: Stream, request: Request, count: int, attempt: int, t0: float, answered: float
    ) -> None:
        measured = self._recent_total / max(1, self._fresh + self._marked)  # what each had been sending
        self._now = answered - self.sdk.latency
        cohort = Cohort(count, EnvClient(self.sdk, answered, measured), t0)
        self._throttled(cohort, stream, request, attempt, answered)

    def _act(self, sim: Simulation, kind: int, event: list[Any], now: float) -> None:
        if kind == SEND:
            cohort, stream, request, attempt, key = event
            del self._sending[key]
            self._send(sim, cohort, stream, request, attempt, now)
        else:
            self._free(event[0])

    def _to_marked(self, sim: Simulation, stream: Stream, request: Request, count: int, now: float) -> None:
        """`count` requests to the idle marked environments freed last."""
        while count:
            cohort = self._unidle()
            if cohort.count > count:
                taken = cohort.part(count)
                self._idle.append(cohort)
                self._remember(cohort)
            else:
                taken = cohort
            self._idle_envs -= taken.count
            count -= taken.count
            taken.t0, taken.context = now, {}
            self._send(sim, taken, stream, request, 1, now)

    def _route(self, count: int) -> bool:
        """Whether a group of arrivals goes to idle marked environments: each idle environment is as likely
        as another to get a request, so a group goes there with their share of the idle ones (whole
        groups, so that a group is admitted at once)."""
        idle = self._idle_envs
        return self._rng.random() < idle / (idle + max(0, self._fresh - self._busy))

    def _unidle(self) -> Cohort:
        """The most recently freed idle cohort, taken off the idle list."""
        cohort = self._idle.pop()
        if cohort.idle_key is not None and self._alike.get(cohort.idle_key) is cohort:
            del self._alike[cohort.idle_key]
        return cohort

    def _send(
        self, sim: Simulation, cohort: Cohort, stream: Stream, request: Request, attempt: int, now: float
    ) -> None:
        """One call from each environment of a marked cohort (once its limiter lets it go)."""
        self._now = now
        at = cohort.env.send_at(now)
        if at > now + 1e-9:
            self._schedule(math.ceil(at / self.tick - 1e-9), cohort, cohort.count, stream, request, attempt)
            return
        stats, outcome, answered, count = (
            self.stats,
            self.outcome(stream),
            now + self.sdk.latency,
            cohort.count,
        )
        stats.calls += count
        stats.finished = max(stats.finished, answered)
        accepted = sim.admit(request, count)
        refused, throttled = sim.refused, count - accepted - sim.refused
        if accepted:
            done = take(cohort, accepted)
            done.env.answered(done.context, answered)
            outcome.answered(accepted, answered - done.t0)
            self._done(answered, done)
        if throttled:
            stats.throttled_calls += throttled
            outcome.throttled += throttled
        failed = refused + (throttled if self._cancelled(stream) else 0)
        if failed:  # refused for good, or a cancelled transaction: the application gets the error
            gone = take(cohort, failed)
            stats.failed += refused
            stats.errors += failed - refused
            gone.env.answered(gone.context, answered, ok=False)
            outcome.gave_up(failed, answered - gone.t0)
            self._done(answered, gone)
        elif throttled:
            self._throttled(cohort, stream, request, attempt, answered)

    def _throttled(
        self, cohort: Cohort, stream: Stream, request: Request, attempt: int, answered: float
    ) -> None:
        """A cohort throttled at `attempt`: its clients give up, or each sleeps its share of the backoff."""
        ceiling = cohort.env.throttled(attempt, cohort.context, answered)  # the same for each of them
        count, outcome = cohort.count, self.outcome(stream)
        if ceiling is None:
            self.stats.errors += count
            self.stats.gave_up += count
            outcome.gave_up(count, answered - cohort.t0)
            self._done(answered, cohort)
            return
        self.stats.retries += count
        outcome.retries += count
        jitter, tick, attempt = self.sdk.jitter, self.tick, attempt + 1
        if count == 1:
            self._schedule(
                math.ceil((answered + jitter() * ceiling) / tick - 1e-9), cohort, 1, stream, request, attempt
            )
            return
        ticks: dict[int, int] = {}
        for size in (count // SPREAD + (n < count % SPREAD) for n in range(min(SPREAD, count))):
            due = math.ceil((answered + jitter() * ceiling) / tick - 1e-9)
            ticks[due] = ticks.get(due, 0) + size
        for due, size in ticks.items():
            self._schedule(due, cohort, size, stream, request, attempt)

    def _schedule(
        self, tick: int, cohort: Cohort, size: int, stream: Stream, request: Request, attempt: int
    ) -> None:
        """`size` of the cohort send again on `tick`, with the others resending the same request then (a
        cohort already due takes them in; else they part from this one)."""
        key = (tick, stream.name, id(request), attempt)
        pending = self._sending.get(key)
        if pending is not None:
            pending.take_in(cohort, size)
            cohort.count -= size
            return
        group = take(cohort, size)
        self._sending[key] = group
        self._push(tick * self.tick, SEND, group, stream, request, attempt, key)

    def _done(self, answered: float, cohort: Cohort) -> None:
        """The cohort's environments are free once answered: now, when that is before the next arrivals."""
        if answered - self._now <= self.tick:
            self._free(cohort)
        else:
            self._push(answered, FREE, cohort)

    def _free(self, cohort: Cohort) -> None:
        """A cohort done: back to pristine (standard quota full again), or idle, merged with its like."""
        if cohort.env.pristine:
            self._marked -= cohort.count
            self._fresh += cohort.count
            return
        self._idle_envs += cohort.count
        same = self._alike.get(cohort.env.key)
        if same is not None:
            same.absorb(cohort)
            return
        self._idle.append(cohort)
        self._remember(cohort)

    def _remember(self, cohort: Cohort) -> None:
        cohort.idle_key = cohort.env.key
        self._alike[cohort.idle_key] = cohort
