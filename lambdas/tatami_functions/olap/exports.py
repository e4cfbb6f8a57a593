"""A table's exports as the planner sees them: kind, status, the instant its data reaches, its folder.

DynamoDB describes an export (DescribeExport, ExportTableToPointInTime's answer); `ExportRecord` keeps
what deciding the next export and publishing the last one need. Pure: `repository.py` makes the calls.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
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
