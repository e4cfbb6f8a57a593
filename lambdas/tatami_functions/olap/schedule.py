"""What to export now, from a table's recent exports: pure, so every rule is a unit test.

`auto` (the schedule): a full export when the newest full one is older than `full_every` (or
there is none); otherwise, if incremental exports are on, the changes since the newest export once
they are `incremental_every` old; otherwise nothing. A running export always waits: exports of one
table never pile up. Incremental windows are 15 minutes to 24 hours (DynamoDB's limits); a gap
longer than a day needs a full export.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from tatami_functions.olap.exceptions import PlanError
from tatami_functions.olap.exports import COMPLETED, FULL, RUNNING, ExportRecord

MIN_WINDOW = timedelta(minutes=15)
MAX_WINDOW = timedelta(hours=24)
KINDS = ("auto", "full", "incremental")


@dataclass(frozen=True)
class Decision:
    """`action` is full, incremental, wait or skip; `since` starts an incremental window."""

    action: str
    reason: str
    since: datetime | None = None


@dataclass(frozen=True)
class History:
    """The exports that matter: running ones, the newest completed full one, the newest completed one."""

    running: tuple[ExportRecord, ...]
    last_full: ExportRecord | None
    last: ExportRecord | None

    @classmethod
    def of(cls, records: Sequence[ExportRecord]) -> History:
        done = [r for r in records if r.status == COMPLETED and r.point is not None]
        full = [r for r in done if r.kind == FULL]
        return cls(
            running=tuple(r for r in records if r.status == RUNNING),
            last_full=max(full, key=_point, default=None),
            last=max(done, key=_point, default=None),
        )


def _point(record: ExportRecord) -> datetime:
    assert record.point is not None
    return record.point


def decide(
    history: History,
    now: datetime,
    kind: str = "auto",
    full_every: timedelta = timedelta(days=1),
    incremental_every: timedelta | None = None,
) -> Decision:
    """The export to start now.

    >>> decide(History((), None, None), datetime(2024, 5, 1)).action
    'full'
    """
    if kind not in KINDS:
        raise PlanError(f"kind {kind!r} must be one of {', '.join(KINDS)}")
    if history.running:
        return Decision("wait", f"export {history.running[0].arn} is still running")
    if kind == "full":
        return Decision("full", "asked for")
    if kind == "incremental":
        return _incremental(history, now, forced=True)
    if history.last_full is None:
        return Decision("full", "no full export yet")
    age = now - _point(history.last_full)
    if age >= full_every:
        return Decision("full", f"the newest full export is {_hours(age)} old")
    if incremental_every is not None and now - _point(history.last or history.last_full) >= incremental_every:
        return _incremental(history, now, forced=False)
    return Decision("skip", f"up to date: the newest full export is {_hours(age)} old")


def _incremental(history: History, now: datetime, forced: bool) -> Decision:
    if history.last is None:
        raise PlanError("an incremental export continues a completed export: run a full export first")
    since = _point(history.last)
    window = now - since
    if window < MIN_WINDOW:
        return Decision("skip", f"the newest export reaches {since:%H:%M}: under 15 minutes ago")
    if window > MAX_WINDOW:
        if forced:
            raise PlanError(
                f"the newest export reaches {since.isoformat()}, more than 24 hours ago: an incremental "
                "export covers at most 24 hours; run a full export"
            )
        return Decision("full", "the newest export is more than 24 hours old")
    return Decision("incremental", f"changes of the last {_hours(window)}", since=since)


def _hours(age: timedelta) -> str:
    """An age in hours.

    >>> _hours(timedelta(hours=30))
    '30.0 h'
    """
    return f"{age.total_seconds() / 3600:.1f} h"
