"""A poison record in a batch of the replicator's stream (its replica copy can never fit in 400 KB),
while a fifth of the replicator's DynamoDB calls are throttled or fail.

Invariant: the poison record reaches the failure queue with its key and its reason; every other
record of the batch is replicated, exactly as in the source.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from tatami.local.cloud import LocalCloud
from tatami_functions import stack_outputs
from tatami_functions.replication.records import live
from tests.integration.faults.conftest import injected
from tests.support.service_tables import largest_item
from tests.support.waiting import eventually


def _parked(cloud: LocalCloud) -> list[dict[str, Any]]:
    sqs, url = cloud.client("sqs"), cloud.outputs[stack_outputs.OUTPUT_REPLICATION_FAILURES]
    reply = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, WaitTimeSeconds=1)
    messages = reply.get("Messages", [])
    return [json.loads(message["Body"]) for message in messages]


def _replicated(cloud: LocalCloud, keys: list[str]) -> bool:
    client = cloud.client("dynamodb")
    replica = cloud.outputs[stack_outputs.OUTPUT_LOGFILE_REPLICA_TABLE]
    for key in keys:
        item = client.get_item(TableName=replica, Key={"PK": {"S": key}}, ConsistentRead=True).get("Item")
        if item is None or live(item) is None or live(item)["n"] != {"N": key.rsplit("-", 1)[1]}:
            return False
    return True


def test_a_poison_record_is_parked_with_its_reason_and_the_rest_is_replicated(
    faulty_cloud: LocalCloud,
) -> None:
    """Invariant: poison -> failure queue with key and reason; every other record replicated."""
    client, source = faulty_cloud.client("dynamodb"), faulty_cloud.outputs[stack_outputs.OUTPUT_LOGFILE_TABLE]
    batch = uuid.uuid4().hex[:8]
    keys = [f"request#{batch}-{n}" for n in range(30)]
    for n, key in enumerate(keys):
        if n == 15:
            largest_item(client, source, f"request#{batch}-poison")
        client.put_item(TableName=source, Item={"PK": {"S": key}, "n": {"N": str(n)}})
    parked: list[dict[str, Any]] = []
    assert eventually(lambda: parked.extend(_parked(faulty_cloud)) or parked, timeout=60)
    poison = [m for m in parked if m.get("keys") == {"PK": {"S": f"request#{batch}-poison"}}]
    assert poison and all(m["condition"] == "UnreplicableRecord" and m["reason"] for m in poison), parked
    assert eventually(lambda: _replicated(faulty_cloud, keys), timeout=60)
    assert injected(faulty_cloud) > 0
