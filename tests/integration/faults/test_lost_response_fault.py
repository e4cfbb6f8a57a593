"""The lost-response fault on DynamoDB Local (tatami/local/engines/faults.py): the call reaches the
engine and applies, the caller sees a read timeout. It picks its calls by operation, by the table they
name and by attempt; with it, the SDK's resend of an `ADD` counts twice, and the guarded client of
the API functions (common/clients.py, common/writes.py) counts once."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from botocore.config import Config
from botocore.exceptions import ReadTimeoutError
from botocore.retries import standard

from tatami.local.engines import processes as engines
from tatami.local.engines.faults import LOST_RESPONSE, FaultInjector, FaultPlan
from tatami_functions.common import writes

LOST_FIRST_ANSWER = FaultPlan(rate=1.0, errors=(LOST_RESPONSE,), attempts=(1,))


@pytest.fixture
def tables(dynamodb_local: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Any, str, str]]:
    """A client of DynamoDB Local (standard retries, no backoff sleeps) and two new tables."""
    monkeypatch.setattr(standard.ExponentialBackoff, "delay_amount", lambda self, context: 0.0)
    client = engines.dynamodb_client(dynamodb_local)
    names = [f"lost-{uuid.uuid4().hex[:8]}" for _ in range(2)]
    for name in names:
        client.create_table(
            TableName=name,
            KeySchema=[{"AttributeName": "k", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "k", "AttributeType": "S"}],
            BillingMode="PAY_PER_REQUEST",
        )
    yield client, names[0], names[1]
    for name in names:
        client.delete_table(TableName=name)


def _faulty(endpoint: str, plan: FaultPlan, guarded: bool) -> tuple[Any, FaultInjector]:
    """A new client of `endpoint` with `plan` injected (and the API functions' guard, if `guarded`)."""
    made = engines.dynamodb_client(
        endpoint, config=Config(retries={"mode": "standard", "total_max_attempts": 3})
    )
    if guarded:
        writes.guard(made.meta.events, "dynamodb")
    injector = FaultInjector(plan)
    injector.attach(made.meta.events)
    return made, injector


def _add(client: Any, table: str) -> None:
    client.update_item(
        TableName=table,
        Key={"k": {"S": "votes"}},
        UpdateExpression="ADD #c :one",
        ExpressionAttributeNames={"#c": "count"},
        ExpressionAttributeValues={":one": {"N": "1"}},
    )


def _count(client: Any, table: str) -> int:
    item = client.get_item(TableName=table, Key={"k": {"S": "votes"}}, ConsistentRead=True).get("Item", {})
    return int(item.get("count", {"N": "0"})["N"])


def test_a_lost_answer_is_a_write_applied_and_a_read_timeout(tables: tuple[Any, str, str]) -> None:
    client, table, _ = tables
    made, injector = _faulty(client.meta.endpoint_url, LOST_FIRST_ANSWER, guarded=False)
    _add(made, table)  # the first answer is lost; the SDK sends the ADD again, and it lands twice
    assert _count(client, table) == 2  # what the issue saw: one 200, counted twice
    assert injector.injected == {LOST_RESPONSE: 1}


def test_the_guarded_client_never_resends_an_add_whose_answer_was_lost(tables: tuple[Any, str, str]) -> None:
    client, table, _ = tables
    made, _ = _faulty(client.meta.endpoint_url, LOST_FIRST_ANSWER, guarded=True)
    with pytest.raises(ReadTimeoutError):
        _add(made, table)
    assert _count(client, table) == 1  # applied once; the caller hears that it may have
    made.put_item(TableName=table, Item={"k": {"S": "p"}})  # a put is resent: applied, then answered
    assert "Item" in client.get_item(TableName=table, Key={"k": {"S": "p"}})


def test_the_fault_picks_its_calls_by_table_and_operation(tables: tuple[Any, str, str]) -> None:
    client, chosen, other = tables
    plan = FaultPlan(
        rate=1.0, errors=(LOST_RESPONSE,), operations=("dynamodb.UpdateItem",), resources=(chosen,)
    )
    made, injector = _faulty(client.meta.endpoint_url, plan, guarded=True)
    _add(made, other)  # another table: answered
    made.put_item(TableName=chosen, Item={"k": {"S": "p"}})  # another operation: answered
    with pytest.raises(ReadTimeoutError):
        _add(made, chosen)
    assert (_count(client, other), _count(client, chosen)) == (1, 1)
    assert injector.injected == {LOST_RESPONSE: 1}
    assert FaultPlan.from_json(plan.to_json()) == plan
