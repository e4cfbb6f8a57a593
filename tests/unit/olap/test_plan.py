"""When the schedule exports what: full when due, incremental windows within DynamoDB's limits, waits."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tatami_functions.olap.exceptions import PlanError
from tatami_functions.olap.exports import COMPLETED, FULL, INCREMENTAL, RUNNING, ExportRecord
from tatami_functions.olap.schedule import History, decide

NOW = datetime(2024, 5, 2, 12, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)


def record(kind: str, hours_ago: float, status: str = COMPLETED) -> ExportRecord:
    return ExportRecord(
        f"arn:t/export/{hours_ago}", status, kind, NOW - hours_ago * HOUR, "m/manifest-summary.json"
    )


def test_a_table_never_exported_gets_a_full_export() -> None:
    assert decide(History.of([]), NOW).action == "full"


def test_a_running_export_always_waits() -> None:
    history = History.of([record(FULL, 30), record(FULL, 0.1, RUNNING)])
    assert decide(history, NOW).action == "wait"
    assert decide(history, NOW, kind="full").action == "wait"


def test_auto_exports_fully_once_the_full_export_is_a_day_old() -> None:
    assert decide(History.of([record(FULL, 25)]), NOW).action == "full"
    skip = decide(History.of([record(FULL, 3)]), NOW)
    assert skip.action == "skip" and "3.0 h" in skip.reason


def test_auto_adds_incremental_exports_from_the_newest_export_when_asked() -> None:
    history = History.of([record(FULL, 5), record(INCREMENTAL, 1.5)])
    decision = decide(history, NOW, incremental_every=HOUR)
    assert decision.action == "incremental" and decision.since == NOW - 1.5 * HOUR
    assert (
        decide(History.of([record(FULL, 5), record(INCREMENTAL, 0.5)]), NOW, incremental_every=HOUR).action
        == "skip"
    )


def test_incremental_windows_stay_within_15_minutes_and_24_hours() -> None:
    assert decide(History.of([record(FULL, 0.1)]), NOW, kind="incremental").action == "skip"
    with pytest.raises(PlanError, match="at most 24 hours"):
        decide(History.of([record(FULL, 30)]), NOW, kind="incremental", full_every=timedelta(days=7))
    with pytest.raises(PlanError, match="run a full export first"):
        decide(History.of([]), NOW, kind="incremental")
    auto = decide(History.of([record(FULL, 30)]), NOW, full_every=timedelta(days=7), incremental_every=HOUR)
    assert auto.action == "full" and "24 hours" in auto.reason


def test_failed_exports_are_ignored() -> None:
    assert decide(History.of([record(FULL, 2, "FAILED")]), NOW).action == "full"


def test_an_unknown_kind_is_refused() -> None:
    with pytest.raises(PlanError, match="must be one of auto, full, incremental"):
        decide(History.of([]), NOW, kind="weekly")
