"""A table's exports as the planner sees them: kind, status, the instant its data reaches, its folder.

DynamoDB describes an export (DescribeExport, ExportTableToPointInTime's answer); `ExportRecord` keeps
what deciding the next export, publishing the last one and reporting on them need (`failed_since`,
`data_age`). Pure: `repository.py` makes the calls.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

FULL, INCREMENTAL = "FULL_EXPORT", "INCREMENTAL_EXPORT"
RUNNING, COMPLETED, FAILED = "IN_PROGRESS", "COMPLETED", "FAILED"
_TOKENS = uuid.UUID("6f0c1d1e-5a1b-4c55-9a8e-0a7a7a7a0001")  # namespace of our client tokens


@dataclass(frozen=True)
class ExportRecord:
    """One export: `point` is the instant its data reaches (ExportTime, or an increment's ExportToTime)."""

    arn: str
    status: str
    kind: str
    point: datetime | None = None
    manifest_key: str | None = None
    item_count: int | None = None
    failure: str | None = None
    started: datetime | None = None  # StartTime
    ended: datetime | None = None  # EndTime: when it completed or failed

    @classmethod
    def from_description(cls, description: dict[str, Any]) -> ExportRecord:
        kind = description.get("ExportType", FULL)
        incremental = description.get("IncrementalExportSpecification") or {}
        point = incremental.get("ExportToTime") if kind == INCREMENTAL else description.get("ExportTime")
        return cls(
            arn=description["ExportArn"],
            status=description["ExportStatus"],
            kind=kind,
            point=point,
            manifest_key=description.get("ExportManifest"),
            item_count=description.get("ItemCount"),
            failure=description.get("FailureMessage"),
            started=description.get("StartTime"),
            ended=description.get("EndTime"),
        )

    @property
    def data_folder(self) -> str | None:
        """The S3 key prefix of the export's data files (beside its manifest)."""
        if not self.manifest_key:
            return None
        return f"{self.manifest_key.rsplit('/', 1)[0]}/data/"


def client_token(seed: str, table_arn: str) -> str:
    """The same request (a retried event, a repeated CLI run id) starts one export, not two.

    >>> client_token("event-1", "arn:t") == client_token("event-1", "arn:t")
    True
    """
    return str(uuid.uuid5(_TOKENS, f"{seed}/{table_arn}"))


def failed_since(records: Sequence[ExportRecord], since: datetime) -> list[ExportRecord]:
    """The exports DynamoDB marked FAILED after `since`: an export fails after the call that started it
    returned (AWS answers IN_PROGRESS), so a run counts the ones that failed since the run before.

    >>> failed = [ExportRecord("arn:e", FAILED, FULL, ended=datetime(2024, 5, 1, 10, 30))]
    >>> [len(failed_since(failed, datetime(2024, 5, 1, hour))) for hour in (10, 11)]
    [1, 0]
    """
    return [r for r in records if r.status == FAILED and r.ended is not None and r.ended > since]


def data_age(records: Sequence[ExportRecord], now: datetime) -> timedelta:
    """How old the newest data analytics can read is: since the instant the newest completed export
    reaches; with none completed, since the first export was started (nothing tried yet: zero).

    >>> done = ExportRecord("arn:e", COMPLETED, FULL, point=datetime(2024, 5, 1, 6))
    >>> data_age([done], datetime(2024, 5, 1, 12)), data_age([], datetime(2024, 5, 1, 12))
    (datetime.timedelta(seconds=21600), datetime.timedelta(0))
    """
    points = [r.point for r in records if r.status == COMPLETED and r.point is not None]
    starts = [r.started for r in records if r.started is not None]
    since = max(points) if points else min(starts, default=now)
    return max(now - since, timedelta(0))
