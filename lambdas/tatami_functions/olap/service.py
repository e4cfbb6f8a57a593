"""The export service: one run over the configured tables, through DynamoDB's export API.

Both the scheduled function and `tatami export` call these, so a run means the same everywhere.
Each table is planned (`schedule.py`), published (its Glue table moved to its newest full export)
and started on its own; a table that fails does not stop the others, and is reported as `failed`.
Each outcome also says how many of the table's exports DynamoDB marked FAILED since the previous run
and how old its newest exported data is, which the export function counts for the alarms.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any

from tatami_functions.olap.exceptions import OlapError
from tatami_functions.olap.exports import COMPLETED, FULL, ExportRecord, client_token, data_age, failed_since
from tatami_functions.olap.layout import s3_location
from tatami_functions.olap.repository import OlapRepository
from tatami_functions.olap.schedule import Decision, History, decide
from tatami_functions.olap.settings import ExportSettings

Log = Callable[[str], None]


@dataclass
class ExportOutcome:
    """What happened to one table: `action` is full, incremental, wait, skip or failed."""

    table: str
    action: str
    reason: str
    export_arn: str | None = None
    items: int | None = None
    seconds: float | None = None
    location: str | None = None  # the export's folder (s3://...)
    published: str | None = None  # the Glue location this run set, if it changed
    failed_later: int | None = None  # exports DynamoDB marked FAILED since the previous run, if any
    age_seconds: float | None = None  # since the instant its newest completed export reaches

    def to_json(self) -> dict[str, Any]:
        return {key: value for key, value in asdict(self).items() if value is not None}

    def line(self) -> str:
        """The outcome as one line of text.

        >>> ExportOutcome("orders", "skip", "up to date").line()
        'orders: skip (up to date)'
        """
        parts = [f"{self.table}: {self.action} ({self.reason})"]
        if self.items is not None:
            parts.append(f"{self.items:,} items in {self.seconds or 0:.1f} s")
        parts.extend(part for part in (self.location, self.export_arn) if part)
        if self.published:
            parts.append(f"Athena now reads {self.published}")
        if self.failed_later:
            parts.append(f"{self.failed_later} export(s) failed since the previous run")
        return "; ".join(parts)


def recent(
    repository: OlapRepository, table_arn: str, bucket: str, s3_prefix: str, limit: int = 50
) -> list[ExportRecord]:
    """The exports newer than the newest completed full export, and that one (at most `limit`), newest
    first: export ids begin with their start time, so only the exports the planner needs are described.
    """
    records: list[ExportRecord] = []
    for export_id in sorted(repository.folders.export_ids(bucket, s3_prefix), reverse=True)[:limit]:
        records.append(repository.exports.describe(f"{table_arn}/export/{export_id}"))
        if records[-1].kind == FULL and records[-1].status == COMPLETED:
            break
    return records


def publish(
    repository: OlapRepository, settings: ExportSettings, table_key: str, full_export: ExportRecord | None
) -> str | None:
    """Point the Glue table of `table_key` at the complete full export `full_export` (Athena then reads
    it); the new location, or None when nothing moved (no catalog, no export, already there)."""
    if not settings.database or full_export is None or full_export.data_folder is None:
        return None
    location = s3_location(settings.bucket, full_export.data_folder)
    return location if repository.catalog.publish(settings.database, f"raw_{table_key}", location) else None


def run_aws(
    settings: ExportSettings,
    repository: OlapRepository,
    *,
    kind: str = "auto",
    seed: str = "",
    now: datetime | None = None,
) -> list[ExportOutcome]:
    """Plan, publish and start the export of every table of `settings` (`seed` makes retries safe)."""
    now = now or datetime.now(UTC)
    seed = seed or now.isoformat()
    outcomes = []
    for key, table_arn in settings.tables.items():
        try:
            outcomes.append(_run_table(settings, repository, key, table_arn, kind, seed, now))
        except OlapError as exc:
            outcomes.append(ExportOutcome(key, "failed", str(exc)))
    return outcomes


def _run_table(
    settings: ExportSettings,
    repository: OlapRepository,
    key: str,
    table_arn: str,
    kind: str,
    seed: str,
    now: datetime,
) -> ExportOutcome:
    records = recent(repository, table_arn, settings.bucket, settings.s3_prefix(key))
    history = History.of(records)
    published = publish(repository, settings, key, history.last_full)
    decision = decide(history, now, kind, settings.full_every, settings.incremental_every)
    record = _start(settings, repository, key, table_arn, decision, client_token(seed, table_arn), now)
    return ExportOutcome(
        key,
        decision.action,
        decision.reason,
        export_arn=record.arn if record else None,
        location=f"s3://{settings.bucket}/{settings.s3_prefix(key)}/" if record else None,
        published=published,
        failed_later=len(failed_since(records, now - settings.check_every)) or None,
        age_seconds=data_age(records, now).total_seconds(),
    )


def _start(
    settings: ExportSettings,
    repository: OlapRepository,
    key: str,
    table_arn: str,
    decision: Decision,
    token: str,
    now: datetime,
) -> ExportRecord | None:
    prefix = settings.s3_prefix(key)
    if decision.action == "full":
        return repository.exports.start_full(table_arn, settings.bucket, prefix, token)
    if decision.action == "incremental":
        assert decision.since is not None
        return repository.exports.start_incremental(
            table_arn, settings.bucket, prefix, token, decision.since, now
        )
    return None
