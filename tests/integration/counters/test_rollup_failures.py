"""The roll-up under real failures on the app's local cloud: its item made unwritable (DynamoDB's 400 KB
item limit), the poller's partial-batch retries, bisection and bounded retries, then recovery."""

from __future__ import annotations

from typing import Any

from tatami.local.cloud import LocalCloud
from tatami_functions import stack_outputs
from tatami_functions.counters.repository import parse_rollup
from tests.integration.counters.cloud_helpers import create, increment, rollup_settled
from tests.support.waiting import eventually

ITEM_LIMIT = 400 * 1024  # DynamoDB's maximum item size, which DynamoDB Local enforces


def _pad(cloud: LocalCloud, name: str) -> None:
    """Fill the counter's roll-up item to DynamoDB's 400 KB limit, so any roll-up write that adds a
    shard is rejected (ValidationException): a real failure, on the roll-up's real retry path."""
    client, table = cloud.client("dynamodb"), cloud.outputs[stack_outputs.OUTPUT_COUNTERS_TABLE]
    key = {"name": {"S": name}, "item": {"S": "rollup"}}
    fits, too_big = 0, ITEM_LIMIT
    while too_big - fits > 1:  # the largest padding DynamoDB accepts, by bisection
        size = (fits + too_big) // 2
        try:
            client.update_item(
                TableName=table,
                Key=key,
                UpdateExpression="SET padding = :p",
                ExpressionAttributeValues={":p": {"S": "x" * size}},
            )
            fits = size
        except client.exceptions.ClientError:
            too_big = size
    client.update_item(
        TableName=table,
        Key=key,
        UpdateExpression="SET padding = :p",
        ExpressionAttributeValues={":p": {"S": "x" * fits}},
    )


def _unpad(cloud: LocalCloud, name: str) -> None:
    cloud.client("dynamodb").update_item(
        TableName=cloud.outputs[stack_outputs.OUTPUT_COUNTERS_TABLE],
        Key={"name": {"S": name}, "item": {"S": "rollup"}},
        UpdateExpression="REMOVE padding",
    )


def _rollup_item_sum(cloud: LocalCloud, name: str) -> int:
    """The roll-up read straight from its item (no HTTP: a cold read function must not eat the
    bounded retry budget while a test holds the item unwritable)."""
    item = cloud.client("dynamodb").get_item(
        TableName=cloud.outputs[stack_outputs.OUTPUT_COUNTERS_TABLE],
        Key={"name": {"S": name}, "item": {"S": "rollup"}},
        ConsistentRead=True,
    )
    return sum(state.count for state in parse_rollup(item.get("Item", {})).values())


def _logged(cloud: LocalCloud, *fragments: str) -> bool:
    return any(all(f in line for f in fragments) for line in cloud.log.snapshot())


def _story(cloud: LocalCloud, name: str) -> str:
    """The stream's and the roll-up's log lines about `name`, for an assertion message."""
    lines = [line for line in cloud.log.snapshot() if name in line or "discarding" in line]
    return f"{_rollup_stats(cloud)}\n" + "\n".join(line[:300] for line in lines[-15:])


def _rollup_stats(cloud: LocalCloud) -> Any:
    (mapping,) = [m for m in cloud.assembly.stream_mappings if "CountersRollupFunction" in m.function_id]
    return cloud.stream_stats[mapping.logical_id]


def test_the_rollup_equals_the_shard_sum_after_partial_failures_and_redelivery(app_cloud: LocalCloud) -> None:
    healthy, blocked = create(app_cloud, "healthy"), create(app_cloud, "blocked")
    _pad(app_cloud, blocked)
    discarded = _rollup_stats(app_cloud).records_discarded
    for _ in range(10):  # the healthy counter's records sit between the failing ones
        assert increment(app_cloud, healthy, 1).status_code == 200
        assert increment(app_cloud, blocked, 2).status_code == 200
    assert eventually(lambda: _logged(app_cloud, "roll-up write failed", blocked), timeout=15)
    # The same invocation applied the healthy records before the first failed one; every retry from
    # that record on redelivers the healthy records after it. Unpad at once: retries are bounded.
    assert _rollup_item_sum(app_cloud, healthy) > 0
    _unpad(app_cloud, blocked)
    assert eventually(lambda: rollup_settled(app_cloud, blocked, 20), timeout=20), _story(app_cloud, blocked)
    assert rollup_settled(app_cloud, healthy, 10)  # redelivered, never double counted
    assert _rollup_stats(app_cloud).records_discarded == discarded


def test_the_rollup_equals_the_shard_sum_after_the_handler_fails_whole_batches(app_cloud: LocalCloud) -> None:
    name = create(app_cloud, "failing")
    _pad(app_cloud, name)
    discarded = _rollup_stats(app_cloud).records_discarded
    for by in (1, 2, 3, -1, 5):
        assert increment(app_cloud, name, by).status_code == 200
    # Every record fails: the invocation errors, the poller bisects the batch and retries.
    assert eventually(lambda: _logged(app_cloud, "stream batch of", "failed", name), timeout=15)
    assert _rollup_item_sum(app_cloud, name) == 0
    _unpad(app_cloud, name)
    assert eventually(lambda: rollup_settled(app_cloud, name, 10), timeout=20), _story(app_cloud, name)
    assert _rollup_stats(app_cloud).records_discarded == discarded
