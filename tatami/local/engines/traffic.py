"""Record the DynamoDB traffic of the local cloud's app: each call, its keys, the capacity it used.

DynamoDB Local never throttles, so what the app does to DynamoDB is recorded here and replayed
through the capacity model (`tatami local insights`), like CloudWatch Contributor Insights plus a
what-if. Each recorded call is one JSON line: when, who, the operation, the request as sent, and
the `ConsumedCapacity` DynamoDB Local computed by AWS's rules (the recorder asks for it with
`ReturnConsumedCapacity=INDEXES` and hides it again from callers that did not ask).

Where it records, and why there: app traffic is what AWS would bill and throttle, and it starts in
two places, so the recorder is a botocore hook installed in both: every Lambda worker (`install`,
before the handler is imported, so every client the function creates is covered), and the clients
the CLI and the sample loaders create for the local cloud (`attach`, from `tatami.target`). The
local cloud's own emulation of AWS is not app traffic and is not recorded: the TTL sweeper's deletes
(free in AWS), the stream pollers (stream reads use no table capacity), table provisioning, the
export API's scans (`exports.py`: an export reads no table capacity).

Every throttled attempt (each one the SDK retries too) is also logged, in the session's `throttled/`
folder: DynamoDB's throttling metrics, which the local cloud's alarms evaluate (`metric_sources.py`).

Standard library and botocore only: a function's worker may import nothing else before its handler.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from pathlib import Path
from typing import Any

__all__ = [
    "ENV",
    "RECORDED",
    "THROTTLED_DIR",
    "attach",
    "install",
    "install_from_environment",
    "session_directory",
]

ENV = "TATAMI_TRAFFIC_DIR"  # where a worker records (set by the local cloud, removed before the handler)
RECORDED = frozenset(
    {
        "PutItem",
        "UpdateItem",
        "DeleteItem",
        "GetItem",
        "Query",
        "Scan",
        "BatchWriteItem",
        "BatchGetItem",
        "TransactWriteItems",
        "TransactGetItems",
    }
)
THROTTLED_DIR = "throttled"  # below the session's folder: one JSON line per throttled attempt
_THROTTLING = frozenset(
    {"ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded"}
)
_ASKED, _BODY = "tatami_traffic_asked", "tatami_traffic_body"
_installed = False


def session_directory(work_dir: Path, cloud_pid: int) -> Path:
    """Where the local cloud running as process `cloud_pid` keeps its traffic (one folder a session)."""
    return work_dir / "traffic" / f"cloud-{cloud_pid}"


class _Log:
    """One process's record file (`<pid>-<source>.jsonl`), appended by any thread, a line at a time.

    Line-buffered: a record is on disk when its call returns (a killed worker loses nothing, and
    `tatami local insights` sees calls at once); a write is a few microseconds beside the call.
    """

    def __init__(self, directory: Path, source: str) -> None:
        slug = re.sub(r"[^A-Za-z0-9_.-]+", "_", source)[:60]
        self.path = directory / f"{os.getpid()}-{slug}.jsonl"
        self.source, self.lock = source, threading.Lock()
        self.file: Any = None  # opened on the first record: a function that never calls DynamoDB leaves none

    def write(self, record: dict[str, Any]) -> None:
        line = json.dumps(record, default=str, separators=(",", ":")) + "\n"
        with self.lock:
            if self.file is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self.file = self.path.open("a", encoding="utf-8", buffering=1)
            self.file.write(line)


class _Recorder:
    """The botocore event handlers: ask for consumed capacity, keep the request, log each throttled
    attempt, record the call."""

    def __init__(self, directory: Path, source: str) -> None:
        self.log = _Log(directory, source)
        self.throttles = _Log(directory / THROTTLED_DIR, source)

    def ask(self, params: dict[str, Any], model: Any, context: dict[str, Any], **_: Any) -> None:
        if model.name in RECORDED and "local_emulation" not in context:  # not the export's scan
            context[_ASKED] = params.get("ReturnConsumedCapacity", "NONE")
            if context[_ASKED] == "NONE":
                params["ReturnConsumedCapacity"] = "INDEXES"

    def keep(self, params: dict[str, Any], context: dict[str, Any], **_: Any) -> None:
        if _ASKED in context:
            context[_BODY] = params.get("body")

    def throttled(
        self, response_dict: Any, parsed_response: Any, context: dict[str, Any], event_name: str, **_: Any
    ) -> None:
        if _ASKED not in context or not response_dict or response_dict.get("status_code", 200) < 400:
            return
        code = (parsed_response or {}).get("Error", {}).get("Code")
        if code in _THROTTLING and context.get(_BODY):
            operation = event_name.rsplit(".", 1)[-1]
            request = json.loads(context[_BODY])
            self.throttles.write({"t": round(time.time(), 3), "op": operation, "req": request, "error": code})

    def record(
        self, http_response: Any, parsed: dict[str, Any], model: Any, context: dict[str, Any], **_: Any
    ) -> None:
        if _ASKED not in context:
            return
        asked, body = context.pop(_ASKED), context.pop(_BODY, None)
        if http_response.status_code < 300 and body:
            unprocessed = parsed.get("UnprocessedItems") or parsed.get("UnprocessedKeys") or {}
            self.log.write(
                {
                    "t": round(time.time(), 3),
                    "src": self.log.source,
                    "op": model.name,
                    "req": json.loads(body),
                    "cc": parsed.get("ConsumedCapacity"),
                    "unprocessed": sum(len(v) if isinstance(v, list) else 1 for v in unprocessed.values()),
                }
            )
        if asked == "NONE":
            parsed.pop("ConsumedCapacity", None)

    def handlers(self) -> list[tuple[str, Any]]:
        return [
            ("before-parameter-build.dynamodb", self.ask),
            ("before-call.dynamodb", self.keep),
            ("response-received.dynamodb", self.throttled),
            ("after-call.dynamodb", self.record),
        ]


def install(directory: Path, source: str) -> None:
    """Record every DynamoDB client this process creates from now on (botocore's built-in handlers)."""
    global _installed
    if _installed:
        return
    from botocore import handlers  # imported here: the worker imports this module before botocore

    handlers.BUILTIN_HANDLERS.extend(_Recorder(directory, source).handlers())
    _installed = True


def install_from_environment() -> None:
    """In a function's worker: record to $TATAMI_TRAFFIC_DIR if set (and hide it from the handler)."""
    directory = os.environ.pop(ENV, None)
    if directory:
        install(Path(directory), os.environ.get("AWS_LAMBDA_FUNCTION_NAME", "worker"))


_attached: dict[Path, _Recorder] = {}


def attach(client: Any, directory: Path, source: str) -> Any:
    """Record one client's DynamoDB calls (a CLI or sample loader client); returns the client."""
    if _installed or client.meta.service_model.service_name != "dynamodb":
        return client
    recorder = _attached.get(directory) or _attached.setdefault(directory, _Recorder(directory, source))
    for event, handler in recorder.handlers():
        client.meta.events.register(event, handler, unique_id=f"tatami-traffic-{event}")
    return client
