"""The replicator's writes on DynamoDB Local, fed the source's real stream records in any order.

Records are read from the source table's stream (DynamoDB Local's), shaped as Lambda delivers them,
then applied shuffled, reversed and duplicated: the replica still ends equal to the source.
"""

from __future__ import annotations

import random
import uuid
from typing import Any

import pytest

from tatami.local.engines import processes as engines
from tatami_functions import stack_outputs
from tatami_functions.replication import service
from tatami_functions.replication.records import DELETED, live
from tatami_functions.replication.repository import ReplicaRepository
from tatami_functions.replication.settings import ReplicatorSettings
from tests.support.service_tables import create_lab_table, largest_item
from tests.support.streams import stream_records


@pytest.fixture(scope="module")
def tables(dynamodb_local: str) -> tuple[Any, Any, str, str]:
    client = engines.dynamodb_client(dynamodb_local)
    prefix = f"repl-{uuid.uuid4().hex[:6]}"
    source = create_lab_table(client, stack_outputs.OUTPUT_LOGFILE_TABLE, prefix)
    replica = create_lab_table(client, stack_outputs.OUTPUT_LOGFILE_REPLICA_TABLE, prefix)
    streams = engines.streams_client(dynamodb_local)
    return client, streams, source, replica


@pytest.fixture(autouse=True)
def replicator_environment(tables: tuple[Any, Any, str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The replicator's settings, as its construct sets them (the parking queue is never reached)."""
    settings = ReplicatorSettings.environment(table=tables[3], failure_queue_url="https://sqs.invalid/q")
    for name, value in settings.items():
        monkeypatch.setenv(name, value)


def of_key(records: list[dict[str, Any]], *keys: str) -> list[dict[str, Any]]:
    return [r for r in records if r["dynamodb"]["Keys"]["PK"]["S"] in keys]


def contents(client: Any, table: str, replica: bool = False) -> dict[str, Any]:
    """The table's items by key; for a replica, its live items without bookkeeping."""
    items = client.scan(TableName=table, ConsistentRead=True)["Items"]
    if replica:
        items = [view for item in items if (view := live(item)) is not None]
    return {item["PK"]["S"]: item for item in items}


def item(n: int, **values: Any) -> dict[str, Any]:
    base = {"PK": {"S": f"request#{n}"}, "requestid": {"N": str(n)}, "blob": {"B": bytes([n % 256]) * 3}}
    return base | {name: {"N": str(value)} for name, value in values.items()}


def test_any_order_of_any_records_converges_to_the_source(tables: tuple[Any, Any, str, str]) -> None:
    client, streams, source, replica = tables
    for n in range(20):
        client.put_item(TableName=source, Item=item(n, bytessent=1))
    for n in range(0, 20, 2):
        client.update_item(
            TableName=source,
            Key={"PK": {"S": f"request#{n}"}},
            UpdateExpression="SET bytessent = :b",
            ExpressionAttributeValues={":b": {"N": "2"}},
        )
    for n in range(0, 20, 3):
        client.delete_item(TableName=source, Key={"PK": {"S": f"request#{n}"}})
    client.put_item(TableName=source, Item=item(3, bytessent=3))  # deleted, then back
    records = stream_records(client, streams, source)
    assert len(records) == 20 + 10 + 7 + 1
    target = ReplicaRepository(replica, client=client)
    for order in (list(reversed(records)), random.Random(4).sample(records, len(records)), records):
        for start in range(0, len(order), 7):
            service.apply_batch(order[start : start + 7], target)
        assert contents(client, replica, replica=True) == contents(client, source)
    tombstones = [i for i in client.scan(TableName=replica)["Items"] if DELETED in i]
    assert len(tombstones) == 6  # 0, 6, 9, 12, 15, 18 stay deleted; 3 came back


def test_a_late_old_put_never_resurrects_a_deleted_item(tables: tuple[Any, Any, str, str]) -> None:
    client, streams, source, replica = tables
    client.put_item(TableName=source, Item=item(900, bytessent=1))
    client.delete_item(TableName=source, Key={"PK": {"S": "request#900"}})
    put, delete = of_key(stream_records(client, streams, source), "request#900")
    target = ReplicaRepository(replica, client=client)
    assert service.apply_batch([delete], target)[delete["dynamodb"]["SequenceNumber"]] == "applied"
    assert service.apply_batch([put], target)[put["dynamodb"]["SequenceNumber"]] == "stale"
    stored = client.get_item(TableName=replica, Key={"PK": {"S": "request#900"}}, ConsistentRead=True)
    assert DELETED in stored["Item"], "the tombstone holds; the late put did not resurrect the item"
    redelivered = service.apply_batch([delete], target)
    assert redelivered[delete["dynamodb"]["SequenceNumber"]] == "stale"


def test_an_unstorable_item_is_parked_and_the_batch_goes_on(
    tables: tuple[Any, Any, str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, streams, source, replica = tables
    parked: list[dict[str, Any]] = []
    monkeypatch.setattr(service, "park", lambda record, why: parked.append({"record": record, "why": why}))
    big = largest_item(client, source, "request#big")
    client.put_item(TableName=source, Item=item(901, bytessent=1))
    records = of_key(stream_records(client, streams, source), "request#big", "request#901")
    outcomes = service.apply_batch(records, ReplicaRepository(replica, client=client))
    assert sorted(outcomes.values()) == ["applied", "parked"]
    assert parked[0]["record"]["dynamodb"]["Keys"] == {"PK": {"S": "request#big"}}
    assert "size" in parked[0]["why"].lower()
    assert big > 400_000 and "request#big" not in contents(client, replica)


def test_an_unreachable_replica_fails_the_records_for_a_retry(tables: tuple[Any, Any, str, str]) -> None:
    client, streams, source, _replica = tables
    records = stream_records(client, streams, source)[:3]
    unreachable = engines.dynamodb_client(f"http://127.0.0.1:{engines.free_port()}")
    outcomes = service.apply_batch(records, ReplicaRepository("any", client=unreachable))
    assert all(outcome.startswith("failed") for outcome in outcomes.values())
