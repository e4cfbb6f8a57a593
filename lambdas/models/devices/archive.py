"""The TTL archive: logs DynamoDB deleted for age land in S3 as gzipped JSON lines, one object a batch.

The seed: TTL deletes expired items at no cost, and they can still be archived. The stream's filter
admits only REMOVE records by `dynamodb.amazonaws.com` (TTL, not a user's delete); this module checks
again, so a misconfigured mapping archives nothing it should not. One object per batch keeps S3
requests (and their cost) far below one per log; the key is the batch's sequence-number range, so a
retried batch rewrites the same object instead of adding a duplicate.
"""

from __future__ import annotations

import base64
import gzip
import json
from datetime import UTC, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from boto3.dynamodb.types import Binary
from botocore.exceptions import BotoCoreError, ClientError

from common.clients import aws_client
from common.stream_images import plain_image
from models.devices.exceptions import DeviceLogsUnavailableError
from models.devices.settings import ArchiveSettings

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


def archive_expired(records: list[dict[str, Any]], client: S3Client | None = None) -> dict[str, Any]:
    """Archive a batch's TTL deletions; raises (so Lambda retries, then bisects) if S3 refuses."""
    expired = [expired_log(record) for record in records if is_ttl_removal(record)]
    if not expired:
        return {"archived": 0}
    key = object_key(records)
    lines = "".join(json.dumps(log, ensure_ascii=False) + "\n" for log in expired)
    try:
        (client or _client()).put_object(
            Bucket=ArchiveSettings.from_env().bucket,
            Key=key,
            Body=gzip.compress(lines.encode()),
            ContentType="application/x-ndjson",
        )
    except (ClientError, BotoCoreError) as exc:
        raise DeviceLogsUnavailableError(f"cannot archive {len(expired)} expired logs: {exc}") from exc
    return {"archived": len(expired), "key": key}


def _client() -> S3Client:
    client: S3Client = aws_client("s3")
    return client
