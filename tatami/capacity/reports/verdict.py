"""A verdict as data: each diagnosis (what happened, to which keys, what to change) and the run's pace.

The text the terminal shows is rendered from it (`Verdict.text`); `tatami local insights` and any
other caller can read the same fields instead.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

__all__ = ["Diagnosis", "Verdict", "percent"]


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


@dataclass(frozen=True)
class Diagnosis:
    """One cause: its `kind`, where, how much of the throttling it explains, the keys, the fix."""

    kind: str  # "hot key", "hot item", "rolling hot partition", "collision", "busy partition", ...
    space: str
    share: float  # of the key space's throttled requests it explains (1.0 for a refusal or a warning)
    keys: tuple[str, ...]
    finding: str
    fix: str

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
class Verdict:
    """What a run says: whether it throttled, why (most throttles first), and at what pace it went."""

    throttled: bool
    diagnoses: tuple[Diagnosis, ...]
    requests: float  # accepted, on the table
    throttled_requests: float  # attempts throttled, on the table
    seconds: float
    errors: int  # throttling errors the SDK gave up on (the application saw them)
    scale: float | None = None

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
        errors = f"; the SDK gave up on {self.errors:,} calls" if self.errors else ""
        return f"{prefix}throttles: {causes}; {share}{errors}; {pace}"

    def __str__(self) -> str:
        return self.text
