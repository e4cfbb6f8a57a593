"""The counters construct in the synthesized template: what would hurt if it changed."""

from __future__ import annotations

import json
from typing import Any

import pytest

from infra.services.counters import CounterSettings
from tatami_functions import stack_outputs
from tatami_functions.counters.settings import CountersSettings
from tatami_functions.counters.table import COUNTERS, SHARDS
from tests.support.synthesis import Synthesized


def _function(synthesized: Synthesized, part: str) -> tuple[str, dict[str, Any]]:
    (found,) = [
        (logical_id, resource["Properties"])
        for logical_id, resource in synthesized.resources("AWS::Lambda::Function").items()
        if logical_id.startswith(f"Counters{part}Function")
    ]
    return found


def _statements(synthesized: Synthesized, part: str) -> list[dict[str, Any]]:
    role_id = _function(synthesized, part)[1]["Role"]["Fn::GetAtt"][0]
    return [
        statement
        for policy in synthesized.resources("AWS::IAM::Policy").values()
        if {"Ref": role_id} in policy["Properties"]["Roles"]
        for statement in policy["Properties"]["PolicyDocument"]["Statement"]
    ]


def _actions_on(statements: list[dict[str, Any]], table_id: str) -> set[str]:
    return {
        action
        for s in statements
        if table_id in json.dumps(s["Resource"])
        for action in ([s["Action"]] if isinstance(s["Action"], str) else s["Action"])
    }


def test_key_schemas_are_the_ones_the_code_uses(synthesized: Synthesized) -> None:
    shards = synthesized.table(stack_outputs.OUTPUT_COUNTER_SHARDS_TABLE)
    assert shards["KeySchema"] == [{"AttributeName": SHARDS.partition_key.name, "KeyType": "HASH"}]
    assert shards["StreamSpecification"] == {"StreamViewType": "NEW_IMAGE"}  # the roll-up's input
    counters = synthesized.table(stack_outputs.OUTPUT_COUNTERS_TABLE)
    assert counters["KeySchema"] == [
        {"AttributeName": COUNTERS.key_names[0], "KeyType": "HASH"},
        {"AttributeName": COUNTERS.key_names[1], "KeyType": "RANGE"},
    ]
    assert "StreamSpecification" not in counters  # roll-up writes must not feed a stream


def test_the_idempotency_table_keeps_powertools_layout(synthesized: Synthesized) -> None:
    table = synthesized.table(stack_outputs.OUTPUT_COUNTER_IDEMPOTENCY_TABLE)
    assert table["KeySchema"] == [{"AttributeName": "id", "KeyType": "HASH"}]
    assert table["TimeToLiveSpecification"] == {"AttributeName": "expiration", "Enabled": True}


def test_the_rollup_mapping_retries_bounded_bisects_and_keeps_what_it_drops(synthesized: Synthesized) -> None:
    rollup_id, _ = _function(synthesized, "Rollup")
    shards_id = synthesized.logical_id(stack_outputs.OUTPUT_COUNTER_SHARDS_TABLE)
    (mapping,) = [
        m["Properties"]
        for m in synthesized.resources("AWS::Lambda::EventSourceMapping").values()
        if synthesized.invoked_function(m["Properties"]["FunctionName"]) == rollup_id
    ]
    assert mapping["EventSourceArn"] == {"Fn::GetAtt": [shards_id, "StreamArn"]}
    assert mapping["StartingPosition"] == "TRIM_HORIZON"
    assert mapping["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    assert mapping["BisectBatchOnFunctionError"] is True
    assert 0 < mapping["MaximumRetryAttempts"] <= 100
    assert 0 < mapping["MaximumRecordAgeInSeconds"] <= 24 * 3600
    assert mapping["BatchSize"] == 1000 and mapping["MaximumBatchingWindowInSeconds"] == 1
    queue_id = synthesized.logical_id(stack_outputs.OUTPUT_COUNTER_ROLLUP_FAILURES)
    assert mapping["DestinationConfig"]["OnFailure"]["Destination"] == {"Fn::GetAtt": [queue_id, "Arn"]}
    (policy,) = [
        p["Properties"]["PolicyDocument"]
        for p in synthesized.resources("AWS::SQS::QueuePolicy").values()
        if p["Properties"]["Queues"] == [{"Ref": queue_id}]
    ]
    assert {"Bool": {"aws:SecureTransport": "false"}} in [s.get("Condition") for s in policy["Statement"]]


def test_each_route_reaches_its_function(synthesized: Synthesized) -> None:
    resources = synthesized.resources("AWS::ApiGateway::Resource")

    def path(resource_id: str) -> str:
        props = resources[resource_id]["Properties"]
        parent = props["ParentId"]
        prefix = path(parent["Ref"]) if "Ref" in parent else ""
        return f"{prefix}/{props['PathPart']}"

    routes = {
        (
            m["Properties"]["HttpMethod"],
            path(m["Properties"]["ResourceId"]["Ref"]),
        ): synthesized.invoked_function(m["Properties"]["Integration"]["Uri"])
        for m in synthesized.resources("AWS::ApiGateway::Method").values()
    }
    write_id, read_id = _function(synthesized, "Write")[0], _function(synthesized, "Read")[0]
    assert write_id == routes[("PUT", "/counters/{name}")]
    assert write_id == routes[("POST", "/counters/{name}/increments")]
    assert read_id == routes[("GET", "/counters/{name}")]


def test_least_privilege_per_function(synthesized: Synthesized) -> None:
    shards_id = synthesized.logical_id(stack_outputs.OUTPUT_COUNTER_SHARDS_TABLE)
    counters_id = synthesized.logical_id(stack_outputs.OUTPUT_COUNTERS_TABLE)
    idempotency_id = synthesized.logical_id(stack_outputs.OUTPUT_COUNTER_IDEMPOTENCY_TABLE)
    write, read, rollup = (_statements(synthesized, part) for part in ("Write", "Read", "Rollup"))
    assert _actions_on(write, shards_id) == {"dynamodb:UpdateItem"}
    assert _actions_on(write, counters_id) == {"dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem"}
    # A keyed increment's transaction: UpdateItem on the shard, PutItem on the record (item by item).
    assert _actions_on(write, idempotency_id) == {"dynamodb:GetItem", "dynamodb:PutItem"}
    assert _actions_on(read, shards_id) == {"dynamodb:BatchGetItem"}
    assert _actions_on(read, counters_id) == {"dynamodb:GetItem", "dynamodb:Query"}
    assert _actions_on(read, idempotency_id) == set()
    assert _actions_on(rollup, counters_id) == {"dynamodb:UpdateItem"}
    assert _actions_on(rollup, shards_id) == {  # its stream, never its items
        "dynamodb:ListStreams",
        "dynamodb:DescribeStream",
        "dynamodb:GetRecords",
        "dynamodb:GetShardIterator",
    }


def test_functions_are_told_only_the_tables_they_may_use(synthesized: Synthesized) -> None:
    name = CountersSettings.name_of
    shards, counters, idempotency = name("shards_table"), name("counters_table"), name("idempotency_table")
    expected = {"Write": {shards, counters, idempotency}, "Read": {shards, counters}, "Rollup": {counters}}
    for part, names in expected.items():
        variables = _function(synthesized, part)[1]["Environment"]["Variables"]
        assert set(variables) & {shards, counters, idempotency} == names, part
        assert variables[name("safety_factor")] == "1.5"


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"safety_factor": 0.5}, "safety_factor 0.5 must be within 1..4"),
        ({"default_target_wcu": 0}, "default_target_wcu 0 must be at least 1"),
        ({"rollup_batch_size": 20_000}, "rollup_batch_size 20000"),
        ({"rollup_retries": -1}, "rollup_retries -1 must be within 0..10000"),
        ({"rollup_max_record_age_hours": 48}, "rollup_max_record_age_hours must be within 1..24"),
    ],
)
def test_settings_refuse_values_that_would_hurt(settings: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        CounterSettings(**settings)
