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
"""

from __future__ import annotations

import base64
import gzip
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
from aws_lambda_powertools.utilities.typing import LambdaContext
from botocore.exceptions import BotoCoreError, ClientError

from tatami_functions.common.clients import aws_client
from tatami_functions.common.observability import logger
from tatami_functions.common.stream_batches import partial_response
from tatami_functions.common.stream_images import plain_image
from tatami_functions.devices.settings import ArchiveSettings

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

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
    return {name: _json_value(value) for name, value in sorted(plain_image(image).items())}


def _json_value(value: Any) -> Any:
    """Numbers as int (a log's numbers are whole), binaries as base64 text, sets as sorted lists."""
    from boto3.dynamodb.types import Binary  # boto3 with the first record, not at init

    if isinstance(value, Decimal):
        return int(value)
    if isinstance(value, Binary | bytes):
        return base64.b64encode(bytes(value)).decode()
    if isinstance(value, dict):
        return {key: _json_value(inner) for key, inner in value.items()}
    if isinstance(value, set):
        return sorted(_json_value(inner) for inner in value)
    if isinstance(value, list):
        return [_json_value(inner) for inner in value]
    return value


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


def archive_expired(records: list[dict[str, Any]], client: S3Client | None = None) -> ArchivedBatch:
    """Archive a batch's TTL deletions in one object; a record that is not a device log fails alone,
    and all of them fail if S3 refuses the object."""
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
    if not expired:
        return ArchivedBatch(failed=failed)
    key = object_key(records)
    lines = "".join(json.dumps(log, ensure_ascii=False) + "\n" for log in expired.values())
    try:
        (client or _client()).put_object(
            Bucket=ArchiveSettings.from_env().bucket,
            Key=key,
            Body=gzip.compress(lines.encode()),
            ContentType="application/x-ndjson",
        )
    except (ClientError, BotoCoreError) as exc:
        why = f"cannot archive {len(expired)} expired logs: {exc}"
        logger.warning("archive object refused; its records will be retried", extra={"error": why})
        return ArchivedBatch(failed=failed | dict.fromkeys(expired, why))
    return ArchivedBatch(key, len(expired), failed)


def handle_batch(event: dict[str, Any], context: LambdaContext | None = None) -> PartialItemFailureResponse:
    """The archiver's work: archive the batch, report what must be retried."""
    batch = archive_expired(event["Records"])
    if batch.key is not None:
        logger.info("archived expired logs", extra={"key": batch.key, "archived": batch.archived})
    return partial_response(event, context, batch.failed)


def _client() -> S3Client:
    client: S3Client = aws_client("s3")
    return client
