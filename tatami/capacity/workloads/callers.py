"""Open-loop callers: requests made by execution environments (Lambda functions), each with its own client.

An environment serves one request at a time with a client of its own (`env_client`): the SDK's
retries of a throttled call keep it busy, and its retry quota and adaptive rate limiter see only
its own calls. New requests go to idle environments (the most recently freed first); when none is
idle a new one starts, as Lambda scales out. The model keeps environments in groups of like state:

- pristine ones (never throttled, or back to a full quota with no limiter on) are
  interchangeable: counted, and their requests admitted in bulk, whatever the rate;
- marked ones (throttled at least once; in adaptive mode for good, as botocore never switches its
  limiter off) in cohorts: `count` environments whose clients are in one state (`EnvClient`),
  admitted together and parted when their fates differ (some accepted, some throttled, each
  throttled one sleeping its own random backoff, in at most `SPREAD` groups). So that a long
  throttled run stays cheap, cohorts that resend the same request at the same attempt in the same
  tick go out together, and idle cohorts that would act alike (`EnvClient.key`) merge: their quota
  is then the group's mean, their limiter the larger part's, and their requests are timed from
  their mean arrival (retried requests' latencies are within a tick or two of each one's own).

The legacy retry mode keeps no state in a client (no quota, no limiter, no jitter), so its
throttled copies are retried in bulk on the client's ticks. A transaction throttled is answered
TransactionCanceledException, which no retry mode retries (`SdkClient.retries`): its request fails
at once. Every request's outcome is filed under its operation (`outcomes.Outcome`).
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
from tatami.capacity.workloads.env_client import EnvClient
from tatami.capacity.workloads.outcomes import Outcome
from tatami.capacity.workloads.schedule import Schedule
from tatami.capacity.workloads.sdk import ADAPTIVE, TRANSACTION_CANCELED, SdkClient

__all__ = ["TICK", "Callers", "Stream"]

TICK = 0.05  # seconds between an open-loop client's groups of arrivals (and legacy retries' ticks)
SPREAD = 8  # throttled environments of a cohort sleep in at most this many groups (each its own delay)
SEND, FREE, BULK = 0, 1, 2  # events: a cohort (re)sends, a cohort is done, legacy copies are due


@dataclass(frozen=True)
class Stream:
    """One kind of operation: its name, the requests it picks from, its rate, whether it is a transaction."""

    name: str
    choices: Sequence[Request]
    schedule: Schedule
    transactional: bool = False  # a throttled transaction is cancelled, not retried by the SDK


class _Cohort:
    """`count` environments whose clients are in the state `env`, on requests made at `t0` (their mean)."""

    __slots__ = ("context", "count", "env", "idle_key", "t0")

    def __init__(self, count: int, env: EnvClient, t0: float, context: dict[str, Any] | None = None) -> None:
        self.count, self.env, self.t0, self.context = count, env, t0, context or {}
        self.idle_key: int | None = None  # its key when it went idle (merging moves its state)

    def part(self, count: int) -> _Cohort:
        """`count` of them, in a state of their own from now on."""
        self.count -= count
        return _Cohort(count, self.env.copy(), self.t0, dict(self.context))

    def absorb(self, other: _Cohort) -> None:
        self.take_in(other, other.count)

    def take_in(self, other: _Cohort, count: int) -> None:
        """Stand also for `count` environments in `other`'s state (which keeps standing for its own)."""
        self.env.absorb(other.env, self.count, count)
        self.t0 = (self.t0 * self.count + other.t0 * count) / (self.count + count)
        self.count += count


class Callers:
    """The environments serving an open-loop workload; `offer` makes requests, `act_due` runs what is due."""

    def __init__(self, sdk: SdkClient, seed: int = 0, tick: float = TICK) -> None:
        self.sdk, self.tick, self.stats = sdk, tick, CallStats()
        self.outcomes: dict[str, Outcome] = {}
        self._rng = random.Random(f"callers:{seed}")
        self._stateful = sdk.config.mode == ADAPTIVE and sdk.attempts > 1
        self._cancelled_retried = sdk.retries(TRANSACTION_CANCELED)
        self._fresh, self._busy, self._fresh_busy = 0, 0, deque[tuple[float, int]]()
        self._idle: list[_Cohort] = []  # marked, idle: the last freed last
        self._idle_envs = 0  # environments in them (only adaptive mode marks any)
        self._alike: dict[int, _Cohort] = {}  # idle cohorts by `EnvClient.key`, to merge into
        self._marked = 0
        self._events: list[tuple[Any, ...]] = []
        self._seq, self._now = 0, 0.0
        self._sending: dict[tuple[int, str, int, int], _Cohort] = {}  # (tick, stream, request, attempt)
        self._due: dict[
            int, dict[tuple[Any, ...], list[Any]]
        ] = {}  # tick -> (stream, request, attempt) -> [copies, mean t0]
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
        """`count` new requests now: to idle marked environments (at times), else to pristine ones."""
        if self._idle and self._route(count):
            self._to_marked(sim, stream, request, min(count, self._idle_envs), now)
            count -= min(count, self._idle_envs)
            if not count:
                return
        if self._stateful and self._busy + count > self._fresh:
            self._fresh = self._busy + count  # Lambda starts what it needs
        self._bulk(sim, stream, request, count, 1, now, now)

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

    def _unidle(self) -> _Cohort:
        """The most recently freed idle cohort, taken off the idle list."""
        cohort = self._idle.pop()
        if cohort.idle_key is not None and self._alike.get(cohort.idle_key) is cohort:
            del self._alike[cohort.idle_key]
        return cohort

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
        measured = self._recent_total / max(1, self._fresh + self._marked)
        self._now = answered - self.sdk.latency
        cohort = _Cohort(throttled, EnvClient(self.sdk, answered, measured), t0)
        self._throttled(cohort, stream, request, attempt, answered)
        return 0

    def _send(
        self, sim: Simulation, cohort: _Cohort, stream: Stream, request: Request, attempt: int, now: float
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
            done = _take(cohort, accepted)
            done.env.answered(done.context, answered)
            outcome.answered(accepted, answered - done.t0)
            self._done(answered, done)
        if throttled:
            stats.throttled_calls += throttled
            outcome.throttled += throttled
        failed = refused + (throttled if self._cancelled(stream) else 0)
        if failed:  # refused for good, or a cancelled transaction: the application gets the error
            gone = _take(cohort, failed)
            stats.failed += refused
            stats.errors += failed - refused
            gone.env.answered(gone.context, answered, ok=False)
            outcome.gave_up(failed, answered - gone.t0)
            self._done(answered, gone)
        elif throttled:
            self._throttled(cohort, stream, request, attempt, answered)

    def _throttled(
        self, cohort: _Cohort, stream: Stream, request: Request, attempt: int, answered: float
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
        self, tick: int, cohort: _Cohort, size: int, stream: Stream, request: Request, attempt: int
    ) -> None:
        """`size` of the cohort send again on `tick`, with the others resending the same request then (a
        cohort already due takes them in; else they part from this one)."""
        key = (tick, stream.name, id(request), attempt)
        pending = self._sending.get(key)
        if pending is not None:
            pending.take_in(cohort, size)
            cohort.count -= size
            return
        group = _take(cohort, size)
        self._sending[key] = group
        self._push(tick * self.tick, SEND, group, stream, request, attempt, key)

    def _done(self, answered: float, cohort: _Cohort) -> None:
        """The cohort's environments are free once answered: now, when that is before the next arrivals."""
        if answered - self._now <= self.tick:
            self._free(cohort)
        else:
            self._push(answered, FREE, cohort)

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
        """Run every event due by `now`: cohorts' calls and frees, legacy retries."""
        events = self._events
        while events and events[0][0] <= now + 1e-9:
            _, _, kind, *event = heapq.heappop(events)
            if kind == BULK:  # a tick's throttled copies of stateless clients, each group at once
                for (_, _, attempt), (count, t0, stream, request) in self._due.pop(event[0]).items():
                    self._bulk(sim, stream, request, count, attempt, t0, now)
            elif kind == SEND:
                cohort, stream, request, attempt, key = event
                del self._sending[key]
                self._send(sim, cohort, stream, request, attempt, now)
            else:
                self._free(event[0])

    def _free(self, cohort: _Cohort) -> None:
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

    def _remember(self, cohort: _Cohort) -> None:
        cohort.idle_key = cohort.env.key
        self._alike[cohort.idle_key] = cohort


def _take(cohort: _Cohort, count: int) -> _Cohort:
    """`count` of the cohort's environments: all of it, or a part parted off (the rest stays in `cohort`)."""
    return cohort if count == cohort.count else cohort.part(count)
