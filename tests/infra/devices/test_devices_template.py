"""The device logs in the synthesized template: the sparse escalation index, TTL and the stream, the
TTL-only archiver, and what the function is told."""

from __future__ import annotations

import json

from tatami_functions import stack_outputs
from tatami_functions.devices.settings import DeviceLogsSettings
from tests.support.synthesis import Synthesized, indexes, keys

HASH = "HASH"
# The other tables of seed 004's models: none streams (nothing would read it).
NEIGHBOURS = (
    stack_outputs.OUTPUT_CARTS_TABLE,
    stack_outputs.OUTPUT_DOCUMENTS_TABLE,
    stack_outputs.OUTPUT_LOCKERS_TABLE,
    stack_outputs.OUTPUT_CAMPAIGN_USERS_TABLE,
)


def test_the_escalation_index_is_sparse(synthesized: Synthesized) -> None:
    """escalated_to is no table key and no other index's: only logs that carry it are in the index."""
    properties = synthesized.table(stack_outputs.OUTPUT_DEVICE_LOGS_TABLE)
    holders = [
        name for name, (index_keys, _p) in indexes(properties).items() if ("escalated_to", HASH) in index_keys
    ]
    assert holders == ["GSI_escalated_to_level_with_created_at"]
    assert "escalated_to" not in {name for name, _kind in keys(properties["KeySchema"])}


def test_device_logs_expire_by_ttl_and_stream_their_old_image(synthesized: Synthesized) -> None:
    properties = synthesized.table(stack_outputs.OUTPUT_DEVICE_LOGS_TABLE)
    assert properties["TimeToLiveSpecification"] == {"AttributeName": "expires_at", "Enabled": True}
    assert properties["StreamSpecification"] == {"StreamViewType": "OLD_IMAGE"}
    assert all("StreamSpecification" not in synthesized.table(k) for k in NEIGHBOURS)  # no reader, no stream


def test_the_archiver_reads_ttl_deletions_only_with_partial_failures_retries_bisection_and_a_dlq(
    synthesized: Synthesized,
) -> None:
    (mapping,) = [
        m["Properties"]
        for logical_id, m in synthesized.resources("AWS::Lambda::EventSourceMapping").items()
        if logical_id.startswith("WorkshopLogArchiver")
    ]
    (pattern,) = [json.loads(f["Pattern"]) for f in mapping["FilterCriteria"]["Filters"]]
    assert pattern == {
        "eventName": ["REMOVE"],
        "userIdentity": {"type": ["Service"], "principalId": ["dynamodb.amazonaws.com"]},
    }
    assert mapping["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    assert mapping["BisectBatchOnFunctionError"] is True and mapping["MaximumRetryAttempts"] == 5
    assert mapping["MaximumRecordAgeInSeconds"] == 23 * 3600
    assert "OnFailure" in mapping["DestinationConfig"]
    device_logs = synthesized.logical_id(stack_outputs.OUTPUT_DEVICE_LOGS_TABLE)
    assert mapping["EventSourceArn"] == {"Fn::GetAtt": [device_logs, "StreamArn"]}


def test_functions_know_their_table_and_the_shard_count(synthesized: Synthesized) -> None:
    functions = synthesized.resources("AWS::Lambda::Function")
    devices = next(f for k, f in functions.items() if k.startswith("WorkshopDeviceLogsFunction"))
    environment = devices["Properties"]["Environment"]["Variables"]
    device_logs = synthesized.template["Outputs"][stack_outputs.OUTPUT_DEVICE_LOGS_TABLE]["Value"]
    name = DeviceLogsSettings.name_of
    assert environment[name("table")] == device_logs and environment[name("shards")] == "10"
    assert devices["Properties"]["Handler"] == "tatami_functions.devices.handler.handler"
