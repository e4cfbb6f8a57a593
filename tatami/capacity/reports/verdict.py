"""A verdict as data: each diagnosis (what happened, to which keys, the fixes with their numbers), what the
application saw, and the run's pace.

The text the terminal shows is rendered from it (`Verdict.text`); `tatami local insights` and any
other caller can read the same fields instead. Harm is told as the application saw it first
(requests that failed, retries, time added), then as DynamoDB counted it (attempts throttled).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

__all__ = ["Diagnosis", "Fix", "Seen", "Verdict", "dollars", "percent"]


def percent(share: float) -> str:
    """A share as a percentage that never rounds a real count away.

    >>> percent(0.0), percent(635 / 285_000), percent(0.04), percent(0.5)
    ('0%', '0.22%', '4.0%', '50%')
    >>> percent(1e-6)
    '<0.01%'
    """
    if share <= 0:
        return "0%"
    if share < 0.0001:
        return "<0.01%"
    if share < 0.01:
        return f"{share:.2%}"
    return f"{share:.1%}" if share < 0.1 else f"{share:.0%}"


def dollars(amount: float) -> str:
    """Dollars to the cent under $100, to the dollar from there (a month's bill is read in dollars).

    >>> dollars(47.449), dollars(1898.0)
    ('$47.45', '$1,898')
    """
    return f"${amount:,.2f}" if amount < 100 else f"${amount:,.0f}"


@dataclass(frozen=True)
class Fix:
    """One thing to change: in words, what to set and to what (computed from the load without its
    retries), and what the workload would cost a month with it (USD), when the bill changes."""

    text: str
    setting: str = ""  # "WCU", "warm write throughput", "shards", "order", ...
    value: float | None = None
    monthly: float | None = None

    def __str__(self) -> str:
        cost = f" (about {dollars(self.monthly)} a month)" if self.monthly is not None else ""
        return f"{self.text}{cost}"


@dataclass(frozen=True)
class Diagnosis:
    """One cause: its `kind`, where, how much of the throttling it explains, the keys, the fixes."""

    kind: str  # "hot key", "hot item", "rolling hot partition", "collision", "busy partition", ...
    space: str
    share: float  # of the key space's throttled requests it explains (1.0 for a refusal or a warning)
    keys: tuple[str, ...]
    finding: str
    fixes: tuple[Fix, ...]

    @property
    def fix(self) -> str:
        return "; or ".join(str(fix) for fix in self.fixes)

    @property
    def text(self) -> str:
        return f"{self.finding}: {self.fix}"

    def as_index(self, index: str) -> Diagnosis:
        """The same diagnosis on a global secondary index, whose back pressure throttles the table too."""
        finding = (
            f"index {index}: {self.finding} (GSI back pressure: the table's writes are throttled with it)"
        )
        return dataclasses.replace(self, finding=finding)


@dataclass(frozen=True)
class Seen:
    """What the application saw of one operation: requests, failures, retries, time added to a request."""

    operation: str
    requests: int
    failed: int
    retries: int
    added: float  # mean seconds beyond one round trip
    p99: float  # seconds within which 99% of requests had their answer

    @property
    def text(self) -> str:
        failed = (
            f"{percent(self.failed / self.requests)} failed ({self.failed:,})" if self.requests else "none"
        )
        timing = f"+{self.added * 1000:,.0f} ms mean, {self.p99 * 1000:,.0f} ms p99"
        return f"{self.operation}: {failed}, {self.retries:,} SDK retries, {timing}"


@dataclass(frozen=True)
class Verdict:
    """What a run says: whether it throttled, why (most throttles first), what the application saw."""

    throttled: bool
    diagnoses: tuple[Diagnosis, ...]
    requests: float  # accepted, on the table
    throttled_requests: float  # attempts throttled, on the table
    seconds: float
    errors: int  # errors the application saw (the SDK gave up, or did not retry)
    scale: float | None = None
    seen: tuple[Seen, ...] = ()  # per operation (open-loop callers); a loader's is its time

    @property
    def kinds(self) -> list[str]:
        return [diagnosis.kind for diagnosis in self.diagnoses]

    @property
    def keys(self) -> list[str]:
        return [key for diagnosis in self.diagnoses for key in diagnosis.keys]

    @property
    def text(self) -> str:
        prefix = f"at {self.scale:g}x this traffic, " if self.scale else ""
        rate = self.requests / max(self.seconds, 0.05)
        pace = f"{self.requests:,.0f} requests in {self.seconds:,.1f} s ({rate:,.0f}/s)"
        causes = "; ".join(diagnosis.text for diagnosis in self.diagnoses)
        if not self.throttled:
            return f"{prefix}no throttling: {pace}" + (f"; but {causes}" if causes else "")
        attempts = self.requests + self.throttled_requests
        throttled = self.throttled_requests
        share = f"{percent(throttled / attempts)} of attempts throttled ({throttled:,.0f})"
        seen = "; ".join(entry.text for entry in self.seen)
        seen = f"the application saw: {seen}; " if seen else ""
        errors = (
            f"; the SDK gave up on {self.errors:,} calls (sent again)"
            if self.errors and not self.seen
            else ""
        )
        return f"{prefix}throttles: {causes}; {seen}{share}{errors}; {pace}"

    def __str__(self) -> str:
        return self.text
