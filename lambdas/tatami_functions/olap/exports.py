"""DynamoDB's export API for one table: what exports exist, and starting full or incremental ones.

Owns the request shapes and translates `ClientError` into `ExportError`. Which exports exist is read
from the bucket: every export has a folder `<prefix>/AWSDynamoDB/<export id>/`, and its ARN is
`<table ARN>/export/<export id>` (ListExports would need IAM on every resource, `*`). Export ids
begin with their start time in milliseconds, so folders sort by start; only the exports the planner
needs are described: newest first, until a completed full export is found.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from tatami_functions.olap.exceptions import ExportError
from tatami_functions.olap.layout import EXPORTS_FOLDER

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


class TableExports:
    """The export API of one region.

    >>> exports = TableExports(boto3.client("dynamodb"), boto3.client("s3"))  # doctest: +SKIP
    >>> exports.start_full("arn:...:table/T", "bucket", "exports/orders", "run-1").status  # doctest: +SKIP
    'IN_PROGRESS'
    """

    def __init__(self, client: Any, s3: Any) -> None:
        self.client, self.s3 = client, s3

    def recent(self, table_arn: str, bucket: str, s3_prefix: str, limit: int = 50) -> list[ExportRecord]:
        """The exports newer than the newest completed full export, and that one (at most `limit`)."""
        records: list[ExportRecord] = []
        for export_id in sorted(self._export_ids(bucket, s3_prefix), reverse=True)[:limit]:
            records.append(self.describe(f"{table_arn}/export/{export_id}"))
            if records[-1].kind == FULL and records[-1].status == COMPLETED:
                break
        return records

    def describe(self, export_arn: str) -> ExportRecord:
        response = self._call("describe_export", ExportArn=export_arn)
        return ExportRecord.from_description(response["ExportDescription"])

    def start_full(self, table_arn: str, bucket: str, s3_prefix: str, token: str) -> ExportRecord:
        return self._start(table_arn, bucket, s3_prefix, token, ExportType=FULL)

    def start_incremental(
        self, table_arn: str, bucket: str, s3_prefix: str, token: str, since: datetime, until: datetime
    ) -> ExportRecord:
        """Changes from `since` to `until` (15 minutes to 24 hours), with old and new images."""
        specification = {
            "ExportFromTime": since,
            "ExportToTime": until,
            "ExportViewType": "NEW_AND_OLD_IMAGES",
        }
        return self._start(
            table_arn,
            bucket,
            s3_prefix,
            token,
            ExportType=INCREMENTAL,
            IncrementalExportSpecification=specification,
        )

    def _start(self, table_arn: str, bucket: str, s3_prefix: str, token: str, **kind: Any) -> ExportRecord:
        response = self._call(
            "export_table_to_point_in_time",
            TableArn=table_arn,
            S3Bucket=bucket,
            S3Prefix=s3_prefix,
            S3SseAlgorithm="AES256",
            ExportFormat="DYNAMODB_JSON",
            ClientToken=token,
            **kind,
        )
        return ExportRecord.from_description(response["ExportDescription"])

    def _export_ids(self, bucket: str, s3_prefix: str) -> list[str]:
        folder = f"{s3_prefix}/{EXPORTS_FOLDER}/"
        ids: list[str] = []
        try:
            pages = self.s3.get_paginator("list_objects_v2").paginate(
                Bucket=bucket, Prefix=folder, Delimiter="/"
            )
            for page in pages:
                ids.extend(
                    entry["Prefix"][len(folder) :].rstrip("/") for entry in page.get("CommonPrefixes", [])
                )
        except (ClientError, BotoCoreError) as exc:
            raise ExportError(f"cannot list the exports in s3://{bucket}/{folder}: {exc}") from exc
        return ids

    def _call(self, operation: str, **request: Any) -> Any:
        try:
            return getattr(self.client, operation)(**request)
        except (ClientError, BotoCoreError) as exc:
            raise ExportError(_explain(operation, request, exc)) from exc


def _explain(operation: str, request: dict[str, Any], exc: Exception) -> str:
    code = exc.response.get("Error", {}).get("Code", "") if isinstance(exc, ClientError) else ""
    where = request.get("TableArn") or request.get("ExportArn") or ""
    if code == "PointInTimeRecoveryUnavailableException":
        return f"{where}: point-in-time recovery is off; exports need it (DataTable turns it on)"
    return f"{operation} {where} failed: {exc}"
