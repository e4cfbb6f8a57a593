"""A full export made by a parallel scan, for DynamoDB Local (which has no ExportTableToPointInTime).

It writes the layout of `olap.layout` to S3 (moto locally): each scan segment streams its items
into gzip data files of its own, then the manifests go up, the summary last. A scan is not a
point-in-time snapshot: writes during the export may or may not be in it (the summary's
exportTime is the scan's start). An interrupted export leaves no summary, so readers never see it;
running it again makes a new, complete one.

Only the local cloud and the CLI's `--local` run this module (in AWS the export function calls
ExportTableToPointInTime instead). It stands in for that API, so on the local cloud its DynamoDB
calls are authorized as the permission the real export needs (`emulate_export`).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import tempfile
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import IO, Any

from tatami_functions.common.scan import ItemsRead, ScanSummary, parallel_scan
from tatami_functions.olap.layout import (
    FILES,
    STARTED,
    SUMMARY,
    DataFile,
    Summary,
    checksum,
    data_file_key,
    export_folder,
    item_line,
    new_export_id,
)

MAX_ITEMS_PER_FILE = 200_000
_SPOOL_BYTES = 16 * 1024 * 1024  # a data file stays in memory up to this size, then spills to disk


class _DataFileWriter:
    """One gzip data file being written by one segment's thread."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.items = 0
        self.size = 0  # uncompressed bytes: what AWS bills an export by
        self.raw: IO[bytes] = tempfile.SpooledTemporaryFile(max_size=_SPOOL_BYTES)  # noqa: SIM115
        # Level 5: about half the time of the default 9 for a few percent more bytes.
        self.gzip = gzip.GzipFile(fileobj=self.raw, mode="wb", compresslevel=5, mtime=0)

    def write(self, items: list[dict[str, Any]]) -> None:
        lines = "".join(item_line(item) for item in items).encode("utf-8")
        self.gzip.write(lines)
        self.items += len(items)
        self.size += len(lines)

    def upload(self, s3: Any, bucket: str) -> DataFile:
        self.gzip.close()
        self.raw.seek(0)
        body = self.raw.read()
        self.raw.close()
        md5 = hashlib.md5(body, usedforsecurity=False).digest()
        s3.put_object(Bucket=bucket, Key=self.key, Body=body, ContentType="application/x-gzip")
        return DataFile(self.key, self.items, md5)


class SegmentFiles:
    """Data files of an export: each segment appends to its own file (no lock on the hot path)."""

    def __init__(self, s3: Any, bucket: str, folder: str, max_items: int = MAX_ITEMS_PER_FILE) -> None:
        self.s3, self.bucket, self.folder, self.max_items = s3, bucket, folder, max_items
        self.open: dict[int, _DataFileWriter] = {}
        self.done: list[DataFile] = []
        self.bytes = 0
        self._lock = threading.Lock()

    def add(self, segment: int, items: list[dict[str, Any]]) -> None:
        """The scan's page handler: called by segment `segment`'s thread only."""
        if not items:
            return
        writer = self.open.get(segment)
        if writer is None:
            writer = self.open[segment] = _DataFileWriter(data_file_key(self.folder))
        writer.write(items)
        if writer.items >= self.max_items:
            self._finish(self.open.pop(segment))

    def close(self) -> tuple[DataFile, ...]:
        for segment in list(self.open):
            self._finish(self.open.pop(segment))
        return tuple(sorted(self.done, key=lambda file: file.key))

    def _finish(self, writer: _DataFileWriter) -> None:
        file = writer.upload(self.s3, self.bucket)
        with self._lock:
            self.done.append(file)
            self.bytes += writer.size


@dataclass(frozen=True)
class LocalExport:
    """What one local export wrote, and how the scan went."""

    summary: Summary
    summary_key: str
    scan: ScanSummary


def export_table(
    dynamodb: Any,
    s3: Any,
    table_arn: str,
    bucket: str,
    s3_prefix: str,
    *,
    segments: int = 4,
    on_items: ItemsRead | None = None,
) -> LocalExport:
    """Export table `table_arn` (DynamoDB Local) to `s3://bucket/s3_prefix/AWSDynamoDB/<id>/`.

    >>> export_table(dynamodb, s3, arn, "olap", "exports/orders").summary.item_count  # doctest: +SKIP
    1234
    """
    table_name = table_arn.rsplit("/", 1)[-1]
    emulate_export(dynamodb)
    started = datetime.now(UTC)
    export_id = new_export_id(started.timestamp())
    folder = export_folder(s3_prefix, export_id)
    s3.put_object(Bucket=bucket, Key=f"{folder}/{STARTED}", Body=b"")
    files = SegmentFiles(s3, bucket, folder)
    try:
        scan = parallel_scan(dynamodb, table_name, segments, files.add, on_items=on_items)
    finally:
        written = files.close()  # even a failed scan uploads what it wrote; no summary marks it unfinished
    summary = Summary(
        export_arn=f"{table_arn}/export/{export_id}",
        table_arn=table_arn,
        bucket=bucket,
        s3_prefix=s3_prefix,
        started=started,
        ended=datetime.now(UTC),
        files=written,
        billed_bytes=files.bytes,
    )
    summary_key = _write_manifests(s3, bucket, folder, summary)
    return LocalExport(summary, summary_key, scan)


def _write_manifests(s3: Any, bucket: str, folder: str, summary: Summary) -> str:
    files_key = f"{folder}/{FILES}"
    files_body = "".join(file.manifest_line() for file in summary.files).encode()
    summary_body = _json(summary.document(files_key))
    for key, body in ((files_key, files_body), (f"{folder}/{SUMMARY}", summary_body)):
        s3.put_object(Bucket=bucket, Key=key, Body=body, ContentType="application/json")
        s3.put_object(Bucket=bucket, Key=key.replace(".json", ".checksum"), Body=checksum(body).encode())
    return f"{folder}/{SUMMARY}"


def _json(document: dict[str, Any]) -> bytes:
    return json.dumps(document, separators=(",", ":")).encode()


EXPORT_PERMISSION = "dynamodb:ExportTableToPointInTime"


def emulate_export(dynamodb: Any) -> None:
    """Mark `dynamodb`'s calls as the export API's work, for the local cloud's IAM check.

    In AWS the export's reads are DynamoDB's own: the caller needs ExportTableToPointInTime on the
    table, never Scan. The local cloud's IAM guard reads `local_emulation` from botocore's request
    context and authorizes such a call as that permission on the table it names (in AWS the key
    is never read).
    """

    def mark(context: dict[str, Any], **_: Any) -> None:
        context["local_emulation"] = EXPORT_PERMISSION

    dynamodb.meta.events.register_first("before-parameter-build.dynamodb", mark, unique_id="tatami-export")
