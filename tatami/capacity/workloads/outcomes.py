"""What the application saw of each kind of operation: requests, failures, retries, added latency.

Attempts throttled are DynamoDB's view; a user acts on what their callers saw: how many requests
failed (the SDK gave up, or did not retry at all), how many retries the SDK sent, and how much
longer requests took than one round trip. `Outcome` keeps those per operation (writes, reads,
increments, transactions...), with every request's time to its answer in a histogram of
milliseconds, so medians and tails come out exactly.

>>> outcome = Outcome()
>>> outcome.answered(98, 0.005); outcome.answered(1, 0.512); outcome.gave_up(1, 0.9)
>>> outcome.requests, outcome.failed, round(outcome.added_latency(0.005) * 1000, 1), outcome.quantile(0.99)
(100, 1, 14.0, 0.512)
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Outcome"]


@dataclass
class Outcome:
    """One operation's requests, as the application saw them (not DynamoDB's attempts)."""

    requests: int = 0  # requests made (each counted once, however many attempts)
    failed: int = 0  # answered with an error: the SDK gave up, or did not retry (a cancelled transaction)
    retries: int = 0  # attempts the SDK sent again
    throttled: int = 0  # attempts DynamoDB throttled
    millis: dict[int, int] = field(default_factory=dict)  # time to the final answer (ms) -> requests

    def answered(self, count: int, seconds: float) -> None:
        """`count` requests succeeded `seconds` after they were made (the hot path: kept plain)."""
        self.requests += count
        ms = int(seconds * 1000 + 0.5)
        self.millis[ms] = self.millis.get(ms, 0) + count

    def gave_up(self, count: int, seconds: float) -> None:
        """`count` requests failed, `seconds` after they were made."""
        self.failed += count
        self.answered(count, seconds)

    @property
    def failed_share(self) -> float:
        return self.failed / self.requests if self.requests else 0.0

    def mean(self) -> float:
        """Mean seconds to an answer."""
        total = sum(self.millis.values())
        return sum(ms * count for ms, count in self.millis.items()) / total / 1000 if total else 0.0

    def quantile(self, q: float) -> float:
        """Seconds within which the share `q` of requests had their answer."""
        total, seen = sum(self.millis.values()), 0
        for ms in sorted(self.millis):
            seen += self.millis[ms]
            if seen >= q * total:
                return ms / 1000
        return 0.0

    def added_latency(self, round_trip: float) -> float:
        """Mean seconds beyond one round trip (the time retries, backoff and client-side waits added)."""
        return max(0.0, self.mean() - round_trip)

    def merge(self, other: Outcome) -> None:
        self.requests += other.requests
        self.failed += other.failed
        self.retries += other.retries
        self.throttled += other.throttled
        for ms, count in other.millis.items():
            self.millis[ms] = self.millis.get(ms, 0) + count
