"""The TTL archive: logs DynamoDB deleted for age land in S3 as gzipped JSON lines, one object a batch.

The seed: TTL deletes expired items at no cost, and they can still be archived. The stream's filter
admits only REMOVE records by `dynamodb.amazonaws.com` (TTL, not a user's delete); this module checks
again, so a misconfigured mapping archives nothing it should not. One object per batch keeps S3
requests (and their cost) far below one per log; the key is the batch's sequence-number range, so a
retried batch rewrites the same object instead of adding a duplicate.

Failures take the stream consumers' one shape (`common.stream_batches`): a record that is not a
device log is a batch item failure while the batch's other logs are archived, and when S3 refuses
the object every record of the batch fails (the function errs: Lambda retries, then bisects). A
retry starts at the lowest failed record, so logs after a poisoned one come again and land in the
retry's object too: the archive is at least once, and each line carries its log's key to dedupe on.

Pure: `service.archive_expired` writes the object through the repository.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from tatami_functions.common.attribute_values import json_value
from tatami_functions.common.observability import logger
from tatami_functions.common.stream_images import plain_image

PREFIX = "archive/device-logs/"
TTL_PRINCIPAL = "dynamodb.amazonaws.com"


def is_ttl_removal(record: dict[str, Any]) -> bool:
    """A REMOVE made by DynamoDB's TTL process (as AWS and the local cloud deliver it).

    >>> is_ttl_removal({"eventName": "REMOVE", "userIdentity": {"type": "Service",
    ...                 "principalId": "dynamodb.amazonaws.com"}})
    True
    """
    identity = record.get("userIdentity") or {}
    return record.get("eventName") == "REMOVE" and identity.get("principalId") == TTL_PRINCIPAL


def expired_log(record: dict[str, Any]) -> dict[str, Any]:
    """The deleted log (the record's old image) as plain JSON values."""
    image = record["dynamodb"].get("OldImage", {})
    return {name: json_value(value) for name, value in sorted(plain_image(image).items())}


def object_key(records: list[dict[str, Any]]) -> str:
    """Where a batch goes: by deletion date, named by its first and last sequence numbers.

    >>> object_key([{"dynamodb": {"SequenceNumber": "100", "ApproximateCreationDateTime": 1580601600}},
    ...             {"dynamodb": {"SequenceNumber": "105"}}])
    'archive/device-logs/date=2020-02-02/100-105.jsonl.gz'
    """
    first, last = records[0]["dynamodb"], records[-1]["dynamodb"]
    day = datetime.fromtimestamp(float(first.get("ApproximateCreationDateTime", 0)), UTC)
    return f"{PREFIX}date={day:%Y-%m-%d}/{first['SequenceNumber']}-{last['SequenceNumber']}.jsonl.gz"


@dataclass(frozen=True)
class ArchivedBatch:
    """What archiving a batch did: the object written (None: no TTL deletion to keep), how many
    logs it holds, and the records to retry (sequence number -> why)."""

    key: str | None = None
    archived: int = 0
    failed: dict[str, str] = field(default_factory=dict)


def expired_logs(records: list[dict[str, Any]]) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """A batch's TTL deletions by sequence number, and the records that are not device logs (with why)."""
    expired: dict[str, dict[str, Any]] = {}
    failed: dict[str, str] = {}
    for record in records:
        if not is_ttl_removal(record):
            continue
        sequence = record["dynamodb"]["SequenceNumber"]
        try:
            expired[sequence] = expired_log(record)
        except (ArithmeticError, KeyError, TypeError, ValueError) as exc:
            logger.warning("not a device log", extra={"sequence_number": sequence, "error": repr(exc)})
            failed[sequence] = f"not a device log ({type(exc).__name__}: {exc})"
    return expired, failed


def archive_object(logs: list[dict[str, Any]]) -> bytes:
    """The archive object's body: one JSON line per log, gzipped.

    >>> gzip.decompress(archive_object([{"device_id": "12345"}]))
    b'{"device_id": "12345"}\\n'
    """
    return gzip.compress("".join(json.dumps(log, ensure_ascii=False) + "\n" for log in logs).encode())
