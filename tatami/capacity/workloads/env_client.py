"""The SDK client of one caller environment (a Lambda function's), with its own retry quota and limiter.

Each execution environment of a function makes its own boto3 client and keeps it while warm, so
each has its own retry quota (standard and adaptive modes) and, in adaptive mode, its own
client-side rate limiter, which measure only that environment's calls. `EnvClient` is that state:
the limiter is botocore's own parts (`rate_limiter.RateLimiter`: `TokenBucket`, `RateClocker`,
`CubicCalculator`); the quota is a number kept by `quota.RetryQuota`'s rule with
`standard.RetryQuotaChecker`'s costs (read from botocore: 500 tokens, 5 a throttled retry, the last
amount taken back after a success that needed retries, 1 after one that did not), as thousands of
environments each holding botocore's locked objects would cost more than the run. The rules every
client shares (attempts, the backoff's ceilings, its random factor) come from the workload's
`SdkClient`.

An environment gets one when it is first throttled: until then its client has a full quota and a
limiter botocore has not switched on, which the model serves in bulk (`bulk_callers`). Throttled
together, environments form a `Cohort`: many environments in one client state (`callers`).
"""

from __future__ import annotations

import math
from typing import Any

from botocore.retries import quota, standard

from tatami.capacity.workloads.rate_limiter import RateLimiter, SimClock
from tatami.capacity.workloads.sdk import ADAPTIVE, LEGACY, SdkClient

__all__ = ["Cohort", "EnvClient", "take"]

THROTTLING_RETRY_COST = standard.RetryQuotaChecker._THROTTLING_RETRY_COST  # botocore: 5 a throttled retry
NO_RETRY_INCREMENT = standard.RetryQuotaChecker._NO_RETRY_INCREMENT  # 1 back for a call that needed none
QUOTA = quota.RetryQuota.INITIAL_CAPACITY  # 500
HISTORY = 10.0  # seconds the environment has been warm before its first throttle (its bucket is full)


class EnvClient:
    """One environment's client: `throttled` says its sleep's ceiling (or None: it gives up), `answered`
    counts a reply.

    `measured`: the environment's send rate before its first throttle (calls a second), which
    botocore's RateClocker would have measured: adaptive mode sets its first rate from it.
    """

    __slots__ = ("_limiter", "_quota", "_sdk")

    def __init__(self, sdk: SdkClient, now: float, measured: float) -> None:
        self._sdk = sdk
        self._quota = QUOTA
        self._limiter = None
        if sdk.config.mode == ADAPTIVE:
            clock = SimClock()
            clock.now = now - HISTORY  # the bucket was made when the client was: it holds its token
            self._limiter = RateLimiter(clock)
            self._limiter.clocker._measured_rate = measured  # botocore measured it while warm
            self._limiter.clocker._last_bucket = math.floor(now * 2) / 2  # its 0.5 s time buckets

    def send_at(self, now: float) -> float:
        """When the next call may go out (adaptive: once its token bucket has a token)."""
        return self._limiter.send_at(now) if self._limiter else now

    def throttled(self, attempt: int, context: dict[str, Any], now: float) -> float | None:
        """Attempt `attempt` was throttled at `now`: the longest sleep before the next (the SDK sleeps a
        random share of it: `SdkClient.jitter`), or None when the SDK gives up."""
        if self._limiter:
            self._limiter.response(now, throttled=True)
        ceilings = self._sdk.ceilings
        if attempt > len(ceilings):
            return None
        if self._sdk.config.mode != LEGACY:
            if self._quota < THROTTLING_RETRY_COST:
                return None
            self._quota -= THROTTLING_RETRY_COST
            context["retry_quota_capacity"] = THROTTLING_RETRY_COST
        return ceilings[attempt - 1]

    def answered(self, context: dict[str, Any], now: float, ok: bool = True) -> None:
        """A reply that was not a throttling error: `ok` gives back quota (botocore's rule); either way the
        limiter counts it as a success (a cancelled transaction is not a throttling error to botocore)."""
        if self._limiter:
            self._limiter.response(now, throttled=False)
        if ok and self._sdk.config.mode != LEGACY:
            back = context.get("retry_quota_capacity", NO_RETRY_INCREMENT)
            self._quota = min(QUOTA, self._quota + back)

    def copy(self) -> EnvClient:
        """Another environment in the same state (a group of environments parting ways)."""
        twin = EnvClient.__new__(EnvClient)
        twin._sdk, twin._quota = self._sdk, self._quota
        twin._limiter = self._limiter.copy() if self._limiter else None
        return twin

    def absorb(self, other: EnvClient, mine: int, theirs: int) -> None:
        """Stand for `mine` environments in this state and `theirs` in `other`'s: their mean quota, and
        (adaptive) the limiter of the larger group."""
        self._quota = (self._quota * mine + other._quota * theirs) // (mine + theirs)
        if other._limiter is not None and theirs > mine:
            self._limiter = other._limiter

    @property
    def key(self) -> int:
        """Environments with the same key behave alike on their next throttles: the quota in retries' worth
        (standard mode), or the limiter's rate within a factor of two (adaptive)."""
        if self._limiter is None:
            return int(self._quota // THROTTLING_RETRY_COST)
        rate: float = self._limiter.bucket.max_rate
        return -1 - round(math.log2(max(rate, 0.5)))

    @property
    def pristine(self) -> bool:
        """Its state is a never-throttled client's again: a full quota and no limiter switched on."""
        return self._limiter is None and self._quota >= QUOTA


class Cohort:
    """`count` environments whose clients are in the state `env`, on requests made at `t0` (their mean)."""

    __slots__ = ("context", "count", "env", "idle_key", "t0")

    def __init__(self, count: int, env: EnvClient, t0: float, context: dict[str, Any] | None = None) -> None:
        self.count, self.env, self.t0, self.context = count, env, t0, context or {}
        self.idle_key: int | None = None  # its key when it went idle (merging moves its state)

    def part(self, count: int) -> Cohort:
        """`count` of them, in a state of their own from now on."""
        self.count -= count
        return Cohort(count, self.env.copy(), self.t0, dict(self.context))

    def absorb(self, other: Cohort) -> None:
        self.take_in(other, other.count)

    def take_in(self, other: Cohort, count: int) -> None:
        """Stand also for `count` environments in `other`'s state (which keeps standing for its own)."""
        self.env.absorb(other.env, self.count, count)
        self.t0 = (self.t0 * self.count + other.t0 * count) / (self.count + count)
        self.count += count


def take(cohort: Cohort, count: int) -> Cohort:
    """`count` of the cohort's environments: all of it, or a part parted off (the rest stays in `cohort`)."""
    return cohort if count == cohort.count else cohort.part(count)
