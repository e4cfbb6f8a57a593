"""What the application saw of a run, operation by operation (`verdict.Seen`), from its callers' outcomes.

Open-loop callers (functions making requests) see failures, retries and time added; a bulk loader's
threads resend until every item is in, so what it sees is the load's time, which the report gives.
"""

from __future__ import annotations

from tatami.capacity.reports.report import Report
from tatami.capacity.reports.verdict import Seen

__all__ = ["seen"]


def seen(report: Report) -> tuple[Seen, ...]:
    """One line per operation the callers made, in the order they were made."""
    return tuple(
        Seen(
            name,
            outcome.requests,
            outcome.failed,
            outcome.retries,
            outcome.added_latency(report.latency),
            outcome.quantile(0.99),
        )
        for name, outcome in report.outcomes.items()
        if outcome.requests
    )
