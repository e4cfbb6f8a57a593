"""DynamoDB's export API on the local cloud, which DynamoDB Local lacks: ExportTableToPointInTime and
DescribeExport answered by a botocore hook before the request leaves the process.

The export function calls the API as deployed, and `tatami export --local` as in AWS; a worker of a
function whose role may export installs the hook for every client (`install`), the CLI attaches it
to its client (`attach`). A full
export is a parallel scan (`tatami.scan`) written in the layout DynamoDB writes
(`tatami_functions.olap.layout`): each scan segment streams its items into gzip data files of its
own, then the manifests go up, the summary last. The call returns when the export is done (AWS
answers IN_PROGRESS at once); a scan is not a point-in-time snapshot, so writes during the export
may or may not be in it (the export time is the scan's start). Incremental exports are refused:
DynamoDB Local keeps no point-in-time history.

DynamoDB keeps its exports' records; here they are objects of the local S3's bucket `REGISTRY` (by
export id, and by client token so that a retried request starts nothing twice), so any process
talking to the same engines describes any export. An export whose process died midway is FAILED.
IAM, in a worker, is AWS's: the call is authorized as ExportTableToPointInTime (or DescribeExport),
the scan and the registry as that permission on the table or export (`local_emulation` in
botocore's request context, which the guard reads), the data files as the caller's s3:PutObject, as
AWS requires of the caller. Workers import this module before their sandbox closes: standard
library, `tatami.scan` and the layout only; botocore is imported when a call comes.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import tempfile
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from typing import IO, Any

from tatami.scan import ItemsRead, parallel_scan
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

MakeClient = Callable[[str], Any]  # a service name -> a new client for the local cloud's engines

REGISTRY = "tatami-local-dynamodb-exports"
EXPORT, DESCRIBE = "ExportTableToPointInTime", "DescribeExport"
MAX_ITEMS_PER_FILE = 200_000
_SPOOL_BYTES = 16 * 1024 * 1024  # a data file stays in memory up to this size, then spills to disk
_REQUEST = "tatami_export_request"  # the call's parameters, kept in its context for `before-call`


class Refusal(Exception):
    """An error answer of the API: `code` as DynamoDB names it."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


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


class Exports:
    """The two operations, over clients `make_client` gives (fresh ones: marking them marks nothing else)."""

    def __init__(self, make_client: MakeClient, segments: int = 4, on_items: ItemsRead | None = None) -> None:
        self.make_client, self.segments, self.on_items = make_client, segments, on_items

    def export(self, request: dict[str, Any]) -> dict[str, Any]:
        """ExportTableToPointInTime: the export made, then its description."""
        if request.get("ExportType", "FULL_EXPORT") != "FULL_EXPORT":
            raise Refusal(
                "ValidationException",
                "DynamoDB Local keeps no point-in-time history: local exports are full exports",
            )
        table_arn, token = str(request["TableArn"]), request.get("ClientToken")
        registry = self._registry(EXPORT, table_arn)
        if token and (earlier := _read(registry, f"tokens/{token}")):
            return self._describe(registry, f"{table_arn}/export/{earlier['id']}")
        started = datetime.now(UTC)
        export_id = new_export_id(started.timestamp())
        bucket, s3_prefix = str(request["S3Bucket"]), str(request.get("S3Prefix", "")).strip("/")
        folder = export_folder(s3_prefix, export_id)
        description = {
            "ExportArn": f"{table_arn}/export/{export_id}",
            "ExportStatus": "IN_PROGRESS",
            "StartTime": started.isoformat(),
            "TableArn": table_arn,
            "ExportTime": started.isoformat(),  # a scan reads from its start on: the nearest instant
            "S3Bucket": bucket,
            "S3Prefix": s3_prefix,
            "S3SseAlgorithm": request.get("S3SseAlgorithm", "AES256"),
            "ExportFormat": request.get("ExportFormat", "DYNAMODB_JSON"),
            "ExportType": "FULL_EXPORT",
            **({"ClientToken": token} if token else {}),
        }
        _write(registry, f"exports/{export_id}", {**description, "pid": os.getpid()})
        if token:
            _write(registry, f"tokens/{token}", {"id": export_id})
        try:
            summary = self._scan_into(table_arn, bucket, s3_prefix, export_id, folder, started)
        except Exception as exc:
            _write(
                registry,
                f"exports/{export_id}",
                {**description, "ExportStatus": "FAILED", "FailureMessage": str(exc), "EndTime": _now()},
            )
            raise
        description |= {
            "ExportStatus": "COMPLETED",
            "EndTime": summary.ended.isoformat(),
            "ExportManifest": f"{folder}/{SUMMARY}",
            "ItemCount": summary.item_count,
            "BilledSizeBytes": summary.billed_bytes,
        }
        _write(registry, f"exports/{export_id}", description)
        return _typed(description)

    def describe(self, request: dict[str, Any]) -> dict[str, Any]:
        """DescribeExport."""
        export_arn = str(request["ExportArn"])
        return self._describe(self._registry(DESCRIBE, export_arn), export_arn)

    def _describe(self, registry: Any, export_arn: str) -> dict[str, Any]:
        found = _read(registry, f"exports/{export_arn.rsplit('/', 1)[-1]}")
        if found is None or found["ExportArn"] != export_arn:
            raise Refusal("ExportNotFoundException", f"Export not found: {export_arn}")
        pid = found.pop("pid", None)
        if found["ExportStatus"] == "IN_PROGRESS" and pid is not None and not _alive(pid):
            # Kept as FAILED from the moment it is found dead: its EndTime then stays put, as AWS's does.
            found |= {
                "ExportStatus": "FAILED",
                "FailureMessage": "the process making the export died",
                "EndTime": _now(),
            }
            _write(registry, f"exports/{export_arn.rsplit('/', 1)[-1]}", found)
        return _typed(found)

    def _scan_into(
        self, table_arn: str, bucket: str, s3_prefix: str, export_id: str, folder: str, started: datetime
    ) -> Summary:
        dynamodb, s3 = self.make_client("dynamodb"), self.make_client("s3")
        _authorize_as(dynamodb, EXPORT, table_arn)  # the reads are the export's, not a Scan
        s3.put_object(Bucket=bucket, Key=f"{folder}/{STARTED}", Body=b"")
        files = SegmentFiles(s3, bucket, folder)
        try:
            parallel_scan(
                dynamodb,
                table_arn.rsplit("/", 1)[-1],
                self.segments,
                files.add,
                progress=False,
                on_items=self.on_items,
            )
        finally:
            written = (
                files.close()
            )  # even a failed scan uploads what it wrote; no summary marks it unfinished
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
        _write_manifests(s3, bucket, folder, summary)
        return summary

    def _registry(self, operation: str, resource: str) -> Any:
        """An S3 client for the registry, whose calls IAM counts as `operation` on `resource`."""
        s3 = self.make_client("s3")
        _authorize_as(s3, operation, resource)
        return s3

    # The botocore handlers: keep the call's parameters, then answer it instead of DynamoDB Local.

    def keep(self, params: dict[str, Any], context: dict[str, Any], **_: Any) -> None:
        context[_REQUEST] = dict(params)

    def answer(self, model: Any, context: dict[str, Any], **_: Any) -> tuple[Any, dict[str, Any]]:
        request = context.get(_REQUEST, {})
        try:
            if model.name == EXPORT:
                return _response(200, {"ExportDescription": self.export(request)})
            return _response(200, {"ExportDescription": self.describe(request)})
        except Refusal as exc:
            return _response(400, {"Error": {"Code": exc.code, "Message": str(exc)}})
        except Exception as exc:  # noqa: BLE001 - an engine's error (a missing table) is the API's answer
            code = getattr(exc, "response", {}).get("Error", {}).get("Code")
            status = 400 if code else 500
            return _response(status, {"Error": {"Code": code or "InternalServerError", "Message": str(exc)}})

    def handlers(self) -> list[tuple[str, Any]]:
        return [
            handler
            for operation in (EXPORT, DESCRIBE)
            for handler in (
                (f"before-parameter-build.dynamodb.{operation}", self.keep),
                (f"before-call.dynamodb.{operation}", self.answer),
            )
        ]


def attach(client: Any, make_client: MakeClient, segments: int = 4, on_items: ItemsRead | None = None) -> Any:
    """Answer the export API of one DynamoDB client (the CLI's); returns the client."""
    for event, handler in Exports(make_client, segments, on_items).handlers():
        client.meta.events.register(event, handler)
    return client


def install() -> None:
    """In a worker: answer the export API of every client created from now on (botocore's built-in
    handlers), each export made with clients of a new session (the worker's endpoints, region and
    credentials, from its environment)."""
    from botocore import handlers, session  # the worker's botocore, once its sandbox is closed

    exports = Exports(lambda service: session.get_session().create_client(service))
    handlers.BUILTIN_HANDLERS.extend(exports.handlers())


def _authorize_as(client: Any, operation: str, resource: str) -> None:
    """Mark every call of `client` as the API's own work: IAM checks `operation` on `resource`."""

    def mark(context: dict[str, Any], **_: Any) -> None:
        context["local_emulation"] = {"action": f"dynamodb:{operation}", "resource": resource}

    client.meta.events.register_first("before-parameter-build", mark)


def _write_manifests(s3: Any, bucket: str, folder: str, summary: Summary) -> None:
    files_key = f"{folder}/{FILES}"
    files_body = "".join(file.manifest_line() for file in summary.files).encode()
    summary_body = json.dumps(summary.document(files_key), separators=(",", ":")).encode()
    for key, body in ((files_key, files_body), (f"{folder}/{SUMMARY}", summary_body)):
        s3.put_object(Bucket=bucket, Key=key, Body=body, ContentType="application/json")
        s3.put_object(Bucket=bucket, Key=key.replace(".json", ".checksum"), Body=checksum(body).encode())


def _write(registry: Any, key: str, document: dict[str, Any]) -> None:
    try:
        registry.put_object(Bucket=REGISTRY, Key=key, Body=json.dumps(document).encode())
    except registry.exceptions.NoSuchBucket:
        registry.create_bucket(Bucket=REGISTRY)
        registry.put_object(Bucket=REGISTRY, Key=key, Body=json.dumps(document).encode())


def _read(registry: Any, key: str) -> dict[str, Any] | None:
    try:
        document: dict[str, Any] = json.loads(registry.get_object(Bucket=REGISTRY, Key=key)["Body"].read())
    except (registry.exceptions.NoSuchKey, registry.exceptions.NoSuchBucket):
        return None
    return document


def _typed(description: dict[str, Any]) -> dict[str, Any]:
    """The description as botocore parses DynamoDB's: times are datetimes."""
    times = ("StartTime", "EndTime", "ExportTime")
    return {
        key: datetime.fromisoformat(value) if key in times else value for key, value in description.items()
    }


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # another user's process: alive
    return True


def _response(status: int, parsed: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """What a `before-call` handler returns in place of the HTTP exchange: (response, parsed)."""
    from botocore.awsrequest import AWSResponse

    parsed["ResponseMetadata"] = {"HTTPStatusCode": status, "HTTPHeaders": {}, "RetryAttempts": 0}
    return AWSResponse("http://local/dynamodb-exports", status, {}, None), parsed
