"""The runbook an alarm links to: docs/runbook.md, one section per kind of alarm.

An alarm's description ends with `Runbook: <url>#<section>`. The URL is where the team's repository
shows docs/runbook.md (cdk.json `runbookUrl`, https), so the link opens from an e-mail or a pager; a
developer's stage without one links the file's path in the checkout. Each section named here is a
heading of docs/runbook.md (tests/infra/test_monitoring.py reads them), anchored as GitHub and most
repository browsers anchor headings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

RUNBOOK_PATH = "docs/runbook.md"

SERVICE_CRITICAL = "A service is Critical"
FUNCTION_ERRORS = "Function errors"
FUNCTION_THROTTLES = "Function throttles"
FUNCTION_SLOW = "Function slow"
CONSUMER_BEHIND = "Stream consumer behind"
CONSUMER_STOPPED = "Stream consumer stopped"
DELIVERY_FAILED = "Failure queue unreachable"
BATCH_PARKED = "Stream batch parked"
PARKED_WAITING = "Parked messages waiting"
PARKED_EXPIRING = "Parked message about to expire"
TABLE_THROTTLED = "Table throttled"
SYSTEM_ERRORS = "DynamoDB system errors"
API_5XX = "API 5xx rate"
API_4XX = "API 4xx rate"
API_LATENCY = "API latency"
LAG = "Index or roll-up lag"
UNENCODABLE = "Unencodable items"
EXPORT_FAILED = "Export failed"
EXPORT_STALE = "No recent export"
SCHEDULE_FAILED = "Export schedule failing"
ACCOUNT_CONCURRENCY = "Account concurrency"
NOTIFICATIONS_FAILED = "Alarm notifications failing"

SECTIONS = (
    SERVICE_CRITICAL,
    FUNCTION_ERRORS,
    FUNCTION_THROTTLES,
    FUNCTION_SLOW,
    CONSUMER_BEHIND,
    CONSUMER_STOPPED,
    DELIVERY_FAILED,
    BATCH_PARKED,
    PARKED_WAITING,
    PARKED_EXPIRING,
    TABLE_THROTTLED,
    SYSTEM_ERRORS,
    API_5XX,
    API_4XX,
    API_LATENCY,
    LAG,
    UNENCODABLE,
    EXPORT_FAILED,
    EXPORT_STALE,
    SCHEDULE_FAILED,
    ACCOUNT_CONCURRENCY,
    NOTIFICATIONS_FAILED,
)


def anchor(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lowercase, punctuation dropped, spaces to hyphens.

    >>> anchor("Index or roll-up lag"), anchor("API 5xx rate")
    ('index-or-roll-up-lag', 'api-5xx-rate')
    """
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


@dataclass(frozen=True, slots=True)
class Runbook:
    """Links into the runbook at `url` (docs/runbook.md as the repository serves it, or its path)."""

    url: str = RUNBOOK_PATH

    def __post_init__(self) -> None:
        if self.url != RUNBOOK_PATH and not re.fullmatch(r"https://\S+", self.url):
            raise ValueError(f"runbookUrl {self.url!r} in cdk.json: give the https:// URL of {RUNBOOK_PATH}")

    @property
    def opens(self) -> bool:
        """Whether a link opens outside the checkout (an https URL)."""
        return self.url.startswith("https://")

    def link(self, section: str) -> str:
        """
        >>> Runbook("https://git.example.com/tatami/blob/main/docs/runbook.md").link("Function errors")
        'https://git.example.com/tatami/blob/main/docs/runbook.md#function-errors'
        """
        if section not in SECTIONS:
            raise ValueError(f"no runbook section {section!r}")
        return f"{self.url}#{anchor(section)}"
