"""The roll-up's pure parts: reading stream records, keeping the newest state, the update it writes."""

from __future__ import annotations

from typing import Any

import pytest

from tatami_functions.counters.repository import _rollup_update, parse_rollup
from tatami_functions.counters.rollup import ShardState, newest_states, shard_update


def record(
    key: str, version: int, count: int, event: str = "MODIFY", at: int = 1_700_000_000
) -> dict[str, Any]:
    image = {"pk": {"S": key}, "count": {"N": str(count)}, "v": {"N": str(version)}}
    return {
        "eventName": event,
        "dynamodb": {"ApproximateCreationDateTime": at, "Keys": {"pk": {"S": key}}, "NewImage": image},
    }


def test_a_record_gives_the_counter_shard_and_absolute_state() -> None:
    assert shard_update(record("votes-A#3", 5, 7)) == ("votes-A", 3, ShardState(5, 7, 1_700_000_000))


def test_removals_are_ignored_and_malformed_records_rejected() -> None:
    assert shard_update({"eventName": "REMOVE", "dynamodb": {"Keys": {"pk": {"S": "a#1"}}}}) is None
    without_version = record("votes-A#3", 5, 7)
    del without_version["dynamodb"]["NewImage"]["v"]
    for bad in (record("no-shard-number", 1, 1), without_version):
        with pytest.raises(ValueError, match="not a shard record"):
            shard_update(bad)


def test_the_newest_version_of_each_shard_wins_whatever_the_order() -> None:
    updates = [shard_update(record(key, v, c)) for key, v, c in [("a#0", 2, 5), ("a#0", 1, 4), ("a#1", 1, 1)]]
    updates.append(("b", 0, ShardState(3, 9, 1)))
    assert newest_states(u for u in updates if u) == {
        "a": {0: ShardState(2, 5, 1_700_000_000), 1: ShardState(1, 1, 1_700_000_000)},
        "b": {0: ShardState(3, 9, 1)},
    }


def test_the_update_replaces_only_entries_that_are_behind() -> None:
    update = _rollup_update({7: ShardState(4, 10, 99), 12: ShardState(1, -2, 98)})
    assert update["UpdateExpression"] == "SET #s0 = :l0, #s1 = :l1"
    assert update["ConditionExpression"] == (
        "(attribute_not_exists(#s0) OR #s0[0] < :v0) AND (attribute_not_exists(#s1) OR #s1[0] < :v1)"
    )
    assert update["ExpressionAttributeNames"] == {"#s0": "s7", "#s1": "s12"}
    assert update["ExpressionAttributeValues"][":l1"] == {"L": [{"N": "1"}, {"N": "-2"}, {"N": "98"}]}


def test_fifty_entries_keep_the_expressions_under_dynamodbs_4_kb() -> None:
    update = _rollup_update({n: ShardState(10**9, 10**12, 1_700_000_000) for n in range(950, 1000)})
    assert len(update["UpdateExpression"]) < 4096 and len(update["ConditionExpression"]) < 4096


def test_a_rollup_item_parses_back_and_ignores_other_attributes() -> None:
    item = {
        "name": {"S": "a"},
        "item": {"S": "rollup"},
        "s3": {"L": [{"N": "2"}, {"N": "7"}, {"N": "5"}]},
        "padding": {"S": "x"},
    }
    assert parse_rollup(item) == {3: ShardState(2, 7, 5)}
