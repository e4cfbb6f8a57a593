"""The roll-up handler in-process against DynamoDB Local (the app cloud's counters table): the same
batch delivered twice, records out of order, more shards than one write holds, a malformed record."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from tatami.local.cloud import LocalCloud
from tatami.local.engines import processes as engines
from tatami.local.template.intrinsics import LOCAL_REGION
from tatami_functions import stack_outputs
from tatami_functions.common.clients import aws_client
from tatami_functions.common.repository import forget_instances
from tatami_functions.counters.repository import parse_rollup, repository
from tatami_functions.counters.service import roll_up
from tatami_functions.counters.settings import CountersSettings, settings


def _reset() -> None:
    settings.cache_clear()
    aws_client.cache_clear()
    forget_instances()


@pytest.fixture
def rollup_env(app_cloud: LocalCloud, monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalCloud]:
    for name, value in {
        **CountersSettings.environment(counters_table=app_cloud.outputs[stack_outputs.OUTPUT_COUNTERS_TABLE]),
        "AWS_ENDPOINT_URL_DYNAMODB": app_cloud.dynamodb_endpoint,
        "AWS_DEFAULT_REGION": LOCAL_REGION,
        "AWS_ACCESS_KEY_ID": engines.LOCAL_CREDENTIALS["aws_access_key_id"],
        "AWS_SECRET_ACCESS_KEY": engines.LOCAL_CREDENTIALS["aws_secret_access_key"],
        "POWERTOOLS_SERVICE_NAME": "counters",
        "POWERTOOLS_METRICS_NAMESPACE": "Test",
    }.items():
        monkeypatch.setenv(name, value)
    _reset()
    yield app_cloud
    _reset()


def record(name: str, shard: int, version: int, count: int, sequence: int) -> dict[str, Any]:
    key = {"pk": {"S": f"{name}#{shard}"}}
    return {
        "eventName": "MODIFY" if version > 1 else "INSERT",
        "eventSource": "aws:dynamodb",
        "dynamodb": {
            "ApproximateCreationDateTime": 1_700_000_000 + sequence,
            "Keys": key,
            "NewImage": {**key, "count": {"N": str(count)}, "v": {"N": str(version)}},
            "SequenceNumber": str(sequence).zfill(21),
            "StreamViewType": "NEW_IMAGE",
        },
    }


def rollup_value(name: str) -> tuple[int, int | None]:
    from tatami_functions.counters.settings import settings

    item = (
        repository()
        .client.get_item(
            TableName=settings().counters_table,
            Key={"name": {"S": name}, "item": {"S": "rollup"}},
            ConsistentRead=True,
        )
        .get("Item", {})
    )
    entries = parse_rollup(item)
    return sum(e.count for e in entries.values()), max((e.at for e in entries.values()), default=None)


def test_a_redelivered_batch_and_stale_records_change_nothing(rollup_env: LocalCloud) -> None:
    name = f"redelivered-{uuid.uuid4().hex[:6]}"
    # Shard 0 goes 1 -> 3 -> 2 (counts), shard 1 goes 5 -> 4: absolute counts, newest version wins.
    batch = [
        record(name, 0, 1, 1, 1),
        record(name, 1, 1, 5, 2),
        record(name, 0, 2, 3, 3),
        record(name, 1, 2, 4, 4),
    ]
    assert roll_up({"Records": batch}) == {"batchItemFailures": []}
    assert rollup_value(name) == (7, 1_700_000_004)
    assert roll_up({"Records": batch}) == {"batchItemFailures": []}  # redelivered whole
    assert roll_up({"Records": batch[2:]}) == {"batchItemFailures": []}  # from a checkpoint
    assert roll_up({"Records": [record(name, 0, 1, 1, 1)]}) == {"batchItemFailures": []}  # stale
    assert rollup_value(name) == (7, 1_700_000_004)
    roll_up({"Records": [record(name, 0, 3, 2, 5)]})
    assert rollup_value(name) == (6, 1_700_000_005)


def test_more_shards_than_one_write_holds(rollup_env: LocalCloud) -> None:
    name = f"wide-{uuid.uuid4().hex[:6]}"
    batch = [record(name, shard, 1, shard, shard + 1) for shard in range(200)]
    assert roll_up({"Records": batch}) == {"batchItemFailures": []}
    assert roll_up({"Records": batch[:120]}) == {"batchItemFailures": []}
    assert rollup_value(name)[0] == sum(range(200))


def test_a_malformed_record_is_reported_and_the_rest_applied(rollup_env: LocalCloud) -> None:
    name = f"malformed-{uuid.uuid4().hex[:6]}"
    bad = record(name, 0, 1, 1, 2)
    del bad["dynamodb"]["NewImage"]["v"]
    response = roll_up({"Records": [record(name, 1, 1, 4, 1), bad, record(name, 2, 1, 6, 3)]})
    assert response == {"batchItemFailures": [{"itemIdentifier": str(2).zfill(21)}]}
    assert rollup_value(name)[0] == 10
