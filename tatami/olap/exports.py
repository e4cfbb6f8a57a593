"""Finding and fetching full exports in S3 (the layout of `tatami_functions.olap.layout`), for DuckDB to read.

The newest complete full export of a table is the one with the greatest id (ids begin with their
start time) that has a manifest-summary.json of type FULL_EXPORT. Data files are downloaded once into
a cache folder per export id, checked against the manifest's MD5; exports never change, so a
cached file is reused as long as it is whole.
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tatami_functions.olap.layout import EXPORTS_FOLDER, SUMMARY, export_id_of, parse_files


class ExportReadError(RuntimeError):
    """An export in S3 is missing a file or a file does not match its manifest."""


@dataclass(frozen=True)
class FetchedExport:
    """A table's newest full export: its summary and the local copies of its data files."""

    table: str
    export_id: str
    summary: dict[str, Any]
    paths: tuple[Path, ...]

    @property
    def item_count(self) -> int:
        return int(self.summary.get("itemCount", 0))


def latest_summary(s3: Any, bucket: str, s3_prefix: str) -> dict[str, Any] | None:
    """The manifest summary of the newest complete full export under `s3_prefix`, or None."""
    keys: list[str] = []
    for page in s3.get_paginator("list_objects_v2").paginate(
        Bucket=bucket, Prefix=f"{s3_prefix}/{EXPORTS_FOLDER}/"
    ):
        keys.extend(obj["Key"] for obj in page.get("Contents", []) if obj["Key"].endswith(f"/{SUMMARY}"))
    for key in sorted(keys, key=export_id_of, reverse=True):
        summary: dict[str, Any] = json.loads(s3.get_object(Bucket=bucket, Key=key)["Body"].read())
        if summary.get("exportType", "FULL_EXPORT") == "FULL_EXPORT":
            return summary
    return None


def fetch(s3: Any, bucket: str, table: str, summary: dict[str, Any], cache_dir: Path) -> FetchedExport:
    """Download the export's data files into `cache_dir/<export id>/` (files already there are kept)."""
    export_id = export_id_of(summary["manifestFilesS3Key"])
    folder = cache_dir / export_id
    folder.mkdir(parents=True, exist_ok=True)
    manifest = s3.get_object(Bucket=bucket, Key=summary["manifestFilesS3Key"])["Body"].read().decode()
    paths = tuple(_fetch_file(s3, bucket, entry, folder) for entry in parse_files(manifest))
    return FetchedExport(table, export_id, summary, paths)


def _fetch_file(s3: Any, bucket: str, entry: dict[str, Any], folder: Path) -> Path:
    key: str = entry["dataFileS3Key"]
    path = folder / key.rsplit("/", 1)[-1]
    expected = base64.b64decode(entry["md5Checksum"])
    if path.exists() and _md5(path.read_bytes()) == expected:
        return path
    body = s3.get_object(Bucket=bucket, Key=entry["dataFileS3Key"])["Body"].read()
    if _md5(body) != expected:
        raise ExportReadError(f"s3://{bucket}/{entry['dataFileS3Key']} does not match its manifest's MD5")
    partial = path.with_suffix(".part")
    partial.write_bytes(body)
    partial.replace(path)  # a file is in the cache whole or not at all
    return path


def _md5(body: bytes) -> bytes:
    return hashlib.md5(body, usedforsecurity=False).digest()
