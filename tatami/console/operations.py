"""The operations view's data: stream backlogs and the index lag, failure queues with what is parked in
them and why, each function's recent invocations, and the IAM report (the alarms are
`LocalCloud.alarm_states()` as they are).

Every part is read from state the local cloud already keeps (its pollers' counts, its function
pools, its IAM usage files, DynamoDB Local, moto's SQS) or from the template; nothing is recomputed.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from tatami.local.functions.pool import Invocation
from tatami.local.iam.report import least_privilege
from zindex import IndexedTable
from zindex.dynamodb import IndexRepository
from zindex.status import lag_seconds

PEEKED = 10  # messages shown per failure queue (SQS hands out at most 10 per receive)


def index_lag(tables: Mapping[str, IndexedTable], dynamodb: Any) -> list[dict[str, Any]]:
    """Per indexed table: entries indexed, the maintainer's last batch, the lag searches report."""
    now, found = time.time(), []
    for name, table in sorted(tables.items()):
        status = IndexRepository(table, dynamodb).get_status()
        ran = "batch_at" in status
        found.append(
            {
                "table": name,
                "entries": int(status.get("entries#all", 0)),
                "last_batch_seconds_ago": now - float(status["batch_at"]) if ran else None,
                "lag_seconds": lag_seconds(status, now) if ran else None,
            }
        )
    return found


def parked(sqs: Any, queue_url: str) -> dict[str, Any]:
    """How many messages a failure queue holds and the first few, without taking them: a receive with a
    visibility timeout of 0 leaves each message where it was."""
    attributes = sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=["ApproximateNumberOfMessages"])
    answer = sqs.receive_message(
        QueueUrl=queue_url, MaxNumberOfMessages=PEEKED, VisibilityTimeout=0, AttributeNames=["SentTimestamp"]
    )
    return {
        "count": int(attributes["Attributes"]["ApproximateNumberOfMessages"]),
        "messages": [_message(m) for m in answer.get("Messages", [])],
    }


def _message(message: Mapping[str, Any]) -> dict[str, Any]:
    try:
        body = json.loads(message["Body"])
    except ValueError:
        body = message["Body"]
    return {
        "sent": int(message.get("Attributes", {}).get("SentTimestamp", 0)) / 1000,
        "why": why(body),
        "body": body,
    }


def why(body: Any) -> str:
    """What a parked message says about its failure: a service's own condition and reason, or the
    event-source mapping's record (condition, error, the batch's sequence numbers).

    >>> why({"requestContext": {"condition": "RetryAttemptsExhausted"},
    ...      "responseContext": {"functionError": "Unhandled"},
    ...      "DDBStreamBatchInfo": {"batchSize": 1, "startSequenceNumber": "7", "endSequenceNumber": "7"}})
    'RetryAttemptsExhausted (Unhandled): 1 record(s), sequence numbers 7..7'
    """
    if not isinstance(body, dict):
        return str(body)[:200]
    if "reason" in body or "condition" in body:
        return ": ".join(str(body[k]) for k in ("condition", "reason") if body.get(k))
    context, batch = body.get("requestContext", {}), body.get("DDBStreamBatchInfo", {})
    error = body.get("responseContext", {}).get("functionError")
    return (
        f"{context.get('condition', '?')}{f' ({error})' if error else ''}: {batch.get('batchSize', '?')} "
        f"record(s), sequence numbers {batch.get('startSequenceNumber')}..{batch.get('endSequenceNumber')}"
    )


def invocations(name: str, memory_mb: int, recent: Iterable[Invocation]) -> dict[str, Any]:
    """A function's recent invocations (newest first) and their summary: count, errors, durations, memory."""
    found = sorted(recent, key=lambda i: -i.started_at)
    durations = [i.duration_ms for i in found]
    memory = [i.max_memory_used_mb for i in found if i.max_memory_used_mb is not None]
    return {
        "function": name,
        "memory_size_mb": memory_mb,
        "count": len(found),
        "errors": sum(not i.ok for i in found),
        "median_ms": statistics.median(durations) if durations else None,
        "max_ms": max(durations, default=None),
        "max_memory_used_mb": max(memory, default=None),
        "recent": [
            {
                "request_id": i.request_id,
                "started_at": i.started_at,
                "duration_ms": round(i.duration_ms, 1),
                "ok": i.ok,
                "error": i.error.get("errorType") if not i.ok else None,
                "max_memory_used_mb": i.max_memory_used_mb,
            }
            for i in found[:20]
        ],
    }


def iam_report(work_dir: Path) -> list[dict[str, Any]]:
    """`tatami local status --iam-report` as data: per function, used, refused, granted but never used."""
    try:
        reports = least_privilege(work_dir)
    except FileNotFoundError:
        return []
    return [
        {
            "function": report.function,
            "used": sorted(report.used),
            "refused": sorted(report.denied),
            "unused": report.unused,
        }
        for report in sorted(reports, key=lambda r: r.function)
    ]
