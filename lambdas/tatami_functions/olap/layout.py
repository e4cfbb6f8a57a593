"""The layout ExportTableToPointInTime writes (full export, DynamoDB JSON), and its local twin.

    <prefix>/AWSDynamoDB/<exportId>/_started                  empty: the export began
    <prefix>/AWSDynamoDB/<exportId>/data/<random>.json.gz     one `{"Item": {...}}` per line
    <prefix>/AWSDynamoDB/<exportId>/manifest-files.json       one line per data file
    <prefix>/AWSDynamoDB/<exportId>/manifest-summary.json     the export: times, counts, keys

The summary is written last, so its presence marks a complete export. Binary values are base64,
numbers are strings, as in DynamoDB's own JSON. Pure: no I/O.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import string
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from tatami_functions.common.attribute_values import binary_as_base64

EXPORTS_FOLDER = "AWSDynamoDB"
SUMMARY = "manifest-summary.json"
FILES = "manifest-files.json"
STARTED = "_started"
VERSION = "2020-06-30"  # the manifest version AWS writes
_ALPHABET = string.ascii_lowercase + string.digits


def table_prefix(prefix: str, table_key: str) -> str:
    """Where a table's exports go: the S3Prefix of its ExportTableToPointInTime calls.

    >>> table_prefix("exports", "orders")
    'exports/orders'
    """
    return f"{prefix.strip('/')}/{table_key}"


def s3_location(bucket: str, folder: str) -> str:
    """The S3 URL of a folder of the bucket (what a Glue table reads).

    >>> s3_location("b", "exports/orders/AWSDynamoDB/01-ab/data/")
    's3://b/exports/orders/AWSDynamoDB/01-ab/data/'
    """
    return f"s3://{bucket}/{folder}"


def export_folder(s3_prefix: str, export_id: str) -> str:
    """The folder of one export.

    >>> export_folder("exports/orders", "01700000000000-abcd1234")
    'exports/orders/AWSDynamoDB/01700000000000-abcd1234'
    """
    return f"{s3_prefix}/{EXPORTS_FOLDER}/{export_id}"


def new_export_id(now: float | None = None) -> str:
    """An id shaped like AWS's: start time in epoch milliseconds (14 digits), '-', 8 random hex digits.

    Sorting ids sorts exports by start time.

    >>> new_export_id(1_700_000_000.0)[:15]
    '01700000000000-'
    """
    millis = int((time.time() if now is None else now) * 1000)
    return f"{millis:014d}-{secrets.token_hex(4)}"


def data_file_key(folder: str) -> str:
    """A fresh data file key in `folder` (AWS names them with 26 random lowercase letters and digits)."""
    name = "".join(secrets.choice(_ALPHABET) for _ in range(26))
    return f"{folder}/data/{name}.json.gz"


def item_line(item: Mapping[str, Any]) -> str:
    """One data line: the item in DynamoDB JSON under "Item" (boto3 gives binaries as bytes).

    >>> item_line({"pk": {"S": "a"}, "sk": {"B": b"\\x08"}})
    '{"Item":{"pk":{"S":"a"},"sk":{"B":"CA=="}}}\\n'
    """
    return (
        json.dumps({"Item": item}, separators=(",", ":"), ensure_ascii=False, default=binary_as_base64) + "\n"
    )


@dataclass(frozen=True)
class DataFile:
    """One line of manifest-files.json."""

    key: str
    item_count: int
    md5: bytes  # of the object's bytes (the gzip file)

    def manifest_line(self) -> str:
        """The entry as one JSON line.

        >>> DataFile("p/data/x.json.gz", 2, bytes(16)).manifest_line()[:30]
        '{"itemCount":2,"md5Checksum":"'
        """
        entry = {
            "itemCount": self.item_count,
            "md5Checksum": base64.b64encode(self.md5).decode("ascii"),
            "etag": self.md5.hex(),  # a single-part upload's ETag is its MD5
            "dataFileS3Key": self.key,
        }
        return json.dumps(entry, separators=(",", ":")) + "\n"


def iso(moment: datetime) -> str:
    """An instant as the manifests write it (UTC, milliseconds, Z).

    >>> iso(datetime(2024, 5, 1, 3, 0, 0, 120000, tzinfo=UTC))
    '2024-05-01T03:00:00.120Z'
    """
    utc = moment.astimezone(UTC)
    return f"{utc:%Y-%m-%dT%H:%M:%S}.{utc.microsecond // 1000:03d}Z"


@dataclass(frozen=True)
class Summary:
    """manifest-summary.json of a full export."""

    export_arn: str
    table_arn: str
    bucket: str
    s3_prefix: str
    started: datetime
    ended: datetime
    files: tuple[DataFile, ...]
    billed_bytes: int

    @property
    def item_count(self) -> int:
        return sum(file.item_count for file in self.files)

    def document(self, files_key: str) -> dict[str, Any]:
        return {
            "version": VERSION,
            "exportArn": self.export_arn,
            "startTime": iso(self.started),
            "endTime": iso(self.ended),
            "tableArn": self.table_arn,
            "tableId": hashlib.md5(self.table_arn.encode(), usedforsecurity=False).hexdigest(),
            "exportTime": iso(self.started),  # a scan reads from its start on: the nearest instant
            "s3Bucket": self.bucket,
            "s3Prefix": self.s3_prefix,
            "s3SseAlgorithm": "AES256",
            "s3SseKmsKeyId": None,
            "manifestFilesS3Key": files_key,
            "billedSizeBytes": self.billed_bytes,
            "itemCount": self.item_count,
            "outputFormat": "DYNAMODB_JSON",
            "exportType": "FULL_EXPORT",
        }


def checksum(body: bytes) -> str:
    """The .checksum companion of a manifest: its MD5 in hex."""
    return hashlib.md5(body, usedforsecurity=False).hexdigest()


def parse_files(body: str) -> list[dict[str, Any]]:
    """The entries of a manifest-files.json (JSON lines).

    >>> parse_files('{"itemCount":1,"dataFileS3Key":"k"}\\n')
    [{'itemCount': 1, 'dataFileS3Key': 'k'}]
    """
    return [json.loads(line) for line in body.splitlines() if line.strip()]


def export_id_of(summary_key: str) -> str:
    """The export id in a manifest's key.

    >>> export_id_of("exports/orders/AWSDynamoDB/0170-ab/manifest-summary.json")
    '0170-ab'
    """
    return summary_key.rsplit("/", 2)[-2]


def newest(summaries: Iterable[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The full export with the latest exportTime (ties: the later end), or None."""
    full = [s for s in summaries if s.get("exportType", "FULL_EXPORT") == "FULL_EXPORT"]
    return max(full, key=lambda s: (s["exportTime"], s["endTime"]), default=None)
