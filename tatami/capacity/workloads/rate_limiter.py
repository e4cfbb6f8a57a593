"""The adaptive retry mode's client-side rate limiter, on the simulated clock.

botocore's `ClientRateLimiter` blocks the calling thread until its token bucket has a token; the
model cannot block, so `RateLimiter` uses the same parts (`bucket.TokenBucket`, `RateClocker`,
`throttling.CubicCalculator`, its rate rule) and says when a call may go out instead.
"""

from __future__ import annotations

from botocore.exceptions import CapacityNotAvailableError
from botocore.retries import adaptive, bucket, throttling

__all__ = ["RateLimiter", "SimClock"]


class SimClock:
    """botocore's clock interface, reading the simulated time."""

    def __init__(self) -> None:
        self.now = 0.0

    def current_time(self) -> float:
        return self.now

    def sleep(self, amount: float) -> None:
        """Never called: the simulation schedules instead of sleeping."""


class RateLimiter:
    """adaptive's `ClientRateLimiter`, minus its blocking: the same bucket, clocker and CUBIC rule."""

    def __init__(self, clock: SimClock) -> None:
        self.clock = clock
        self.bucket = bucket.TokenBucket(max_rate=1, clock=clock)
        self.cubic = throttling.CubicCalculator(starting_max_rate=0, start_time=clock.current_time())
        self.clocker = adaptive.RateClocker(clock)
        self.enabled = False

    def copy(self) -> RateLimiter:
        """A limiter in the same state (environments alike until now part here), on a clock of its own.

        Each part is a shallow copy: its numbers are its own from then on; its lock (botocore's, for
        threads the simulation does not have) is shared.
        """
        twin = _shallow(self)
        twin.clock = SimClock()
        twin.clock.now = self.clock.now
        twin.bucket, twin.cubic, twin.clocker = (
            _shallow(self.bucket),
            _shallow(self.cubic),
            _shallow(self.clocker),
        )
        twin.bucket._clock = twin.clocker._clock = twin.clock
        return twin

    def send_at(self, now: float) -> float:
        if not self.enabled:
            return now
        self.clock.now = now
        try:
            self.bucket.acquire(1, block=False)
        except CapacityNotAvailableError:
            wait: float = (1 - self.bucket.available_capacity) / self.bucket.max_rate
            return now + wait
        return now

    def response(self, now: float, throttled: bool) -> None:
        """`ClientRateLimiter.on_receiving_response`: measure the send rate, move the bucket's rate."""
        self.clock.now = now
        measured = self.clocker.record()
        if throttled:
            rate = min(measured, self.bucket.max_rate) if self.enabled else measured
            new_rate = self.cubic.error_received(rate, now)
            self.enabled = True
        else:
            new_rate = self.cubic.success_received(now)
        self.bucket.max_rate = min(new_rate, adaptive.ClientRateLimiter._MAX_RATE_ADJUST_SCALE * measured)


def _shallow[T](thing: T) -> T:
    """A new object of the class with the same attributes (copy.copy's result, at a fraction of its cost)."""
    twin = object.__new__(type(thing))
    twin.__dict__.update(thing.__dict__)
    return twin
