"""The replication in the synthesized template: the source streams new images, the replica expires
tombstones, the replicator reads the stream with every guard rail and may only put into the replica."""

from __future__ import annotations

import pytest

from infra.services.replication import ReplicationSettings
from tatami_functions import stack_outputs
from tatami_functions.replication.settings import ReplicatorSettings
from tests.support.synthesis import Synthesized


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


def test_replication_settings_refuse_what_would_lose_or_resurrect_items() -> None:
    with pytest.raises(ValueError, match="tombstone_hours"):
        ReplicationSettings(tombstone_hours=12)
    with pytest.raises(ValueError, match="retry_attempts"):
        ReplicationSettings(retry_attempts=-1)
    with pytest.raises(ValueError, match="max_record_age_hours"):
        ReplicationSettings(max_record_age_hours=30)
