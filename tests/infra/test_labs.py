"""Seed 004's labs in the synthesized template: the adjacency list's inverted index, the employees'
overloaded, sparse and composite GSIs, the replication stream with its guard rails, the routes,
and grants scoped to what each function does."""

from __future__ import annotations

import pytest

from infra.services.replication import ReplicationSettings
from tatami.local.gateway.routes import read_routes
from tatami_functions import stack_outputs
from tatami_functions.replication.settings import ReplicatorSettings
from tests.support.synthesis import Synthesized, indexes, keys

HASH, RANGE = "HASH", "RANGE"
ALL = {"ProjectionType": "ALL"}
HOST_INDEX = {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["bytessent", "requestid", "host"]}


EXPECTED = {
    stack_outputs.OUTPUT_INVOICES_TABLE: (
        [("PK", HASH), ("SK", RANGE)],
        {"GSI_1": ([("SK", HASH), ("PK", RANGE)], ALL)},  # the adjacency list, inverted
    ),
    stack_outputs.OUTPUT_EMPLOYEES_TABLE: (
        [("PK", HASH), ("SK", RANGE)],
        {
            "GSI_1": ([("GSI_1_PK", HASH), ("GSI_1_SK", RANGE)], ALL),
            "GSI_2": ([("is_manager", HASH), ("name", RANGE)], ALL),
            "GSI_3": ([("GSI_3_PK", HASH), ("GSI_3_SK", RANGE)], ALL),
        },
    ),
    stack_outputs.OUTPUT_LOGFILE_TABLE: ([("PK", HASH)], {"GSI_1": ([("GSI_1_PK", HASH)], HOST_INDEX)}),
    stack_outputs.OUTPUT_LOGFILE_REPLICA_TABLE: (
        [("PK", HASH)],
        {"GSI_1": ([("GSI_1_PK", HASH)], HOST_INDEX)},
    ),
}


@pytest.mark.parametrize("output_key", list(EXPECTED))
def test_keys_and_indexes_are_the_workshops(synthesized: Synthesized, output_key: str) -> None:
    properties = synthesized.table(output_key)
    table_keys, expected_indexes = EXPECTED[output_key]
    assert keys(properties["KeySchema"]) == table_keys
    assert indexes(properties) == expected_indexes
    (replica,) = properties["Replicas"]
    assert replica["PointInTimeRecoverySpecification"] == {"PointInTimeRecoveryEnabled": True}


def test_the_manager_index_is_sparse(synthesized: Synthesized) -> None:
    """is_manager keys GSI_2 alone: no table key and no other index holds it, so only managers' items
    (the only ones carrying it, labs/employees/items.py) are in the index."""
    properties = synthesized.table(stack_outputs.OUTPUT_EMPLOYEES_TABLE)
    holders = [name for name, (on, _p) in indexes(properties).items() if ("is_manager", HASH) in on]
    assert holders == ["GSI_2"] and "is_manager" not in dict(keys(properties["KeySchema"]))


def test_the_source_streams_new_images_and_the_replica_expires_tombstones(synthesized: Synthesized) -> None:
    source = synthesized.table(stack_outputs.OUTPUT_LOGFILE_TABLE)
    replica = synthesized.table(stack_outputs.OUTPUT_LOGFILE_REPLICA_TABLE)
    assert source["StreamSpecification"] == {"StreamViewType": "NEW_IMAGE"}
    assert "StreamSpecification" not in replica and "TimeToLiveSpecification" not in source
    assert replica["TimeToLiveSpecification"] == {"AttributeName": "_rep_expires", "Enabled": True}


def test_the_replicator_reads_the_stream_with_every_guard_rail(synthesized: Synthesized) -> None:
    (mapping,) = [
        m["Properties"]
        for key, m in synthesized.resources("AWS::Lambda::EventSourceMapping").items()
        if key.startswith("ReplicationLab")
    ]
    assert mapping["StartingPosition"] == "TRIM_HORIZON" and mapping["BisectBatchOnFunctionError"] is True
    assert mapping["MaximumRetryAttempts"] == 10 and mapping["MaximumRecordAgeInSeconds"] == 23 * 3600
    assert mapping["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    queue_id = mapping["DestinationConfig"]["OnFailure"]["Destination"]["Fn::GetAtt"][0]
    assert mapping["EventSourceArn"] == {
        "Fn::GetAtt": [synthesized.logical_id(stack_outputs.OUTPUT_LOGFILE_TABLE), "StreamArn"]
    }
    queue = synthesized.template["Resources"][queue_id]["Properties"]
    assert queue["SqsManagedSseEnabled"] is True
    policies = [
        statement
        for policy in synthesized.resources("AWS::SQS::QueuePolicy").values()
        if {"Ref": queue_id} in policy["Properties"]["Queues"]
        for statement in policy["Properties"]["PolicyDocument"]["Statement"]
    ]
    tls_only = {"Bool": {"aws:SecureTransport": "false"}}
    assert any(s["Effect"] == "Deny" and s["Condition"] == tls_only for s in policies)


def test_the_replicator_may_only_put_into_the_replica(synthesized: Synthesized) -> None:
    statements = [
        statement
        for key, policy in synthesized.resources("AWS::IAM::Policy").items()
        if key.startswith("ReplicationLabFunction")
        for statement in policy["Properties"]["PolicyDocument"]["Statement"]
    ]
    listed = [s["Action"] if isinstance(s["Action"], list) else [s["Action"]] for s in statements]
    actions = {action for group in listed for action in group}
    assert {a for a in actions if a.startswith("dynamodb:")} == {
        "dynamodb:PutItem",  # the replica: conditional puts only, no reads, no deletes
        "dynamodb:DescribeStream",
        "dynamodb:GetRecords",
        "dynamodb:GetShardIterator",
        "dynamodb:ListStreams",
    }
    functions = synthesized.resources("AWS::Lambda::Function")
    (replicator,) = [f for k, f in functions.items() if k.startswith("ReplicationLabFunction")]
    environment = replicator["Properties"]["Environment"]["Variables"]
    assert environment[ReplicatorSettings.name_of("tombstone_seconds")] == str(48 * 3600)
    replica_id = synthesized.logical_id(stack_outputs.OUTPUT_LOGFILE_REPLICA_TABLE)
    assert environment[ReplicatorSettings.name_of("table")] == {"Ref": replica_id}


def test_every_route_is_served_by_its_labs_function(synthesized: Synthesized) -> None:
    stack = synthesized.stack()
    served = {(r.method, r.resource_path): r.function_id or "" for r in read_routes(stack)}
    expected = {
        "InvoicesLabFunction": [
            *(f"{m} /invoices/{{id}}" for m in ("GET", "PUT", "DELETE")),
            "GET /customers/{id}/invoices",
            "GET /bills/{id}",
        ],
        "EmployeesLabFunction": [
            "GET /employees",
            "GET /employees/managers",
            *(f"{m} /employees/{{id}}" for m in ("GET", "PUT", "DELETE")),
        ],
    }
    for function, routes in expected.items():
        for route in routes:
            method, path = route.split(" ")
            assert served[(method, path)].startswith(function), route


def test_replication_settings_refuse_what_would_lose_or_resurrect_items() -> None:
    with pytest.raises(ValueError, match="tombstone_hours"):
        ReplicationSettings(tombstone_hours=12)
    with pytest.raises(ValueError, match="retry_attempts"):
        ReplicationSettings(retry_attempts=-1)
    with pytest.raises(ValueError, match="max_record_age_hours"):
        ReplicationSettings(max_record_age_hours=30)
