"""Device logs: canonical timestamps, composite keys, new logs (TTL, shard), windows, the TTL archive."""

from __future__ import annotations

import gzip
import json
from collections import Counter
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from aws_lambda_powertools.utilities.batch.exceptions import BatchProcessingError
from botocore.exceptions import ClientError
from pydantic import ValidationError

from tatami_functions.common.instants import instant as timestamp
from tatami_functions.devices import archive, service
from tatami_functions.devices.repository import ArchiveRepository, from_item, to_item, update_expression
from tatami_functions.devices.schemas import DeviceLog, Level, LogIn, sort_key
from tatami_functions.devices.service import DAY_SECONDS, new_log, since, window


def test_the_seed_sort_key_and_a_canonical_timestamp() -> None:
    jst = datetime(2020, 2, 2, 9, 0, 10, 123456, tzinfo=timezone(timedelta(hours=9)))
    assert timestamp(jst) == "2020-02-02T00:00:10.123Z"  # UTC, milliseconds, Z: keys compare as text
    midnight = timestamp(datetime(2020, 2, 2, tzinfo=UTC))
    assert sort_key(Level.WARNING, midnight) == "WARNING#2020-02-02T00:00:00.000Z"


def test_new_logs_expire_after_their_retention_and_spread_over_every_shard() -> None:
    request = {"level": "INFO", "message": "m", "created_at": "2020-02-02T00:00:00Z", "retention_days": 2}
    body = LogIn.model_validate(request)
    logs = [new_log("12345", body, shards=10, now=1_000_000) for _ in range(2000)]
    assert {log.expires_at for log in logs} == {1_000_000 + 2 * DAY_SECONDS}
    counts = Counter(log.shard_id for log in logs)
    assert set(counts) == set(range(10))
    assert max(counts.values()) < 2 * min(counts.values())  # random, but even enough to spread writes


def test_a_log_from_the_future_is_refused_naming_created_at() -> None:
    with pytest.raises(ValidationError) as caught:
        LogIn(level=Level.INFO, message="m", created_at=datetime.now(UTC) + timedelta(hours=1))
    assert caught.value.errors()[0]["loc"] == ("created_at",)


def test_windows_are_inclusive_canonical_and_ordered() -> None:
    assert window(datetime(2020, 2, 2, tzinfo=UTC), datetime(2020, 2, 2, 0, 0, 10, tzinfo=UTC)) == (
        "2020-02-02T00:00:00.000Z",
        "2020-02-02T00:00:10.000Z",
    )
    with pytest.raises(ValueError, match="after"):
        window(datetime(2021, 1, 1, tzinfo=UTC), datetime(2020, 1, 1, tzinfo=UTC))
    assert since(4, datetime(2021, 1, 1, 4, tzinfo=UTC).timestamp()) == "2021-01-01T00:00:00.000Z"


def test_items_round_trip_and_carry_the_keys_the_indexes_need() -> None:
    log = DeviceLog("12345", Level.ERROR, "2020-02-02T00:00:12.000Z", "冷却ファン", 99, 7, "MAX", "SARA")
    item = to_item(log)
    assert item["level_with_created_at"] == {"S": "ERROR#2020-02-02T00:00:12.000Z"}
    assert item["shard_id"] == {"N": "7"} and item["escalated_to"] == {"S": "SARA"}
    assert from_item(item) == log
    unescalated = to_item(DeviceLog("1", Level.INFO, "t", "m", 1, 0))
    assert "escalated_to" not in unescalated and "operator" not in unescalated  # sparse: absent, not null


def test_an_update_can_set_and_remove_in_one_call() -> None:
    update = update_expression({"operator": "MAX", "escalated_to": None})
    assert update["UpdateExpression"] == "SET #operator = :operator REMOVE #escalated_to"
    assert update["ExpressionAttributeValues"] == {":operator": {"S": "MAX"}}


def ttl_record(sequence: str, **image: Any) -> dict[str, Any]:
    return {
        "eventName": "REMOVE",
        "userIdentity": {"type": "Service", "principalId": "dynamodb.amazonaws.com"},
        "dynamodb": {
            "SequenceNumber": sequence,
            "ApproximateCreationDateTime": 1580601600,
            "OldImage": {k: {"N": str(v)} if isinstance(v, int) else {"S": v} for k, v in image.items()},
        },
    }


class FakeS3:
    def __init__(self) -> None:
        self.objects: dict[str, bytes] = {}

    def put_object(self, Bucket: str, Key: str, Body: bytes, ContentType: str) -> None:
        self.objects[Key] = Body


def test_the_archive_keeps_ttl_deletions_only_one_object_per_batch() -> None:
    user_delete = {**ttl_record("3", device_id="x"), "userIdentity": None}
    s3: Any = FakeS3()  # stands in for boto3's S3 client
    bucket = ArchiveRepository("bucket", client=s3)
    result = service.archive_expired(
        [ttl_record("1", device_id="12345", expires_at=5), user_delete, ttl_record("2", device_id="67890")],
        bucket,
    )
    assert result == archive.ArchivedBatch("archive/device-logs/date=2020-02-02/1-2.jsonl.gz", 2)
    assert archived_lines(s3) == [{"device_id": "12345", "expires_at": 5}, {"device_id": "67890"}]
    assert service.archive_expired([user_delete], bucket) == archive.ArchivedBatch()


def archived_lines(s3: FakeS3) -> list[dict[str, Any]]:
    (body,) = s3.objects.values()
    return [json.loads(line) for line in gzip.decompress(body).decode().splitlines()]


@pytest.fixture
def archiver(monkeypatch: pytest.MonkeyPatch) -> FakeS3:
    """The archiver's bucket, its S3 client a fake."""
    s3 = FakeS3()
    monkeypatch.setattr(service.storage, "archive_repository", lambda: ArchiveRepository("bucket", client=s3))
    return s3


def test_a_poisoned_record_is_a_batch_item_failure_and_the_rest_are_archived(archiver: FakeS3) -> None:
    poisoned = ttl_record("2", device_id="x")
    poisoned["dynamodb"]["OldImage"]["count"] = {"N": "many"}  # not a number DynamoDB could have sent
    records = [ttl_record("1", device_id="12345"), poisoned, ttl_record("3", device_id="67890")]
    response = service.archive_batch({"Records": records})
    assert response == {"batchItemFailures": [{"itemIdentifier": "2"}]}  # Lambda retries from it
    assert archived_lines(archiver) == [{"device_id": "12345"}, {"device_id": "67890"}]


def test_when_s3_refuses_every_record_fails_so_lambda_retries_and_bisects(
    archiver: FakeS3, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(**request: Any) -> None:
        raise ClientError({"Error": {"Code": "SlowDown", "Message": "slow down"}}, "PutObject")

    monkeypatch.setattr(archiver, "put_object", refuse)
    records = [ttl_record("1", device_id="12345"), ttl_record("2", device_id="67890")]
    assert service.archive_expired(records).failed == dict.fromkeys(
        ["1", "2"],
        "2 expired logs not archived: cannot write archive/device-logs/date=2020-02-02/1-2.jsonl.gz: "
        "S3 is throttling requests; retry after 1 s",
    )
    with pytest.raises(BatchProcessingError, match="All records failed"):  # a function error
        service.archive_batch({"Records": records})
