"""Batch writes retry unprocessed items and throttling with exponential backoff and full jitter.

DynamoDB Local never throttles, so a scripted client stands in for DynamoDB's answers here; the
same code runs against DynamoDB Local in tests/integration/ip_lookup.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from botocore.exceptions import ClientError

from tatami.ip_loader.exceptions import StoreError
from tatami.ip_loader.store import Backoff, RangesStore

TABLE = "ranges"


def put(n: int) -> dict[str, Any]:
    return {"PutRequest": {"Item": {"pk": {"S": "v1#4#1.0.0.0/8"}, "sk": {"B": n.to_bytes(4, "big")}}}}


def error(code: str) -> ClientError:
    return ClientError({"Error": {"Code": code, "Message": code}}, "BatchWriteItem")


class ScriptedClient:
    """Answers each BatchWriteItem from a script: an exception, or how many requests to leave unprocessed."""

    def __init__(self, script: list[Exception | int]) -> None:
        self.script, self.calls = list(script), []  # type: list[Exception | int], list[list[Any]]

    def batch_write_item(
        self, RequestItems: dict[str, list[Any]], ReturnConsumedCapacity: str
    ) -> dict[str, Any]:
        pending = RequestItems[TABLE]
        self.calls.append(pending)
        step = self.script.pop(0) if self.script else 0
        if isinstance(step, Exception):
            raise step
        done = pending[: len(pending) - step]
        reply: dict[str, Any] = {
            "ConsumedCapacity": [{"TableName": TABLE, "CapacityUnits": float(len(done))}]
        }
        if step:
            reply["UnprocessedItems"] = {TABLE: pending[len(pending) - step :]}
        return reply


def store_with(
    script: list[Exception | int], attempts: int = 12
) -> tuple[RangesStore, ScriptedClient, list[float]]:
    sleeps: list[float] = []
    client = ScriptedClient(script)
    backoff = Backoff(base=0.05, cap=5.0, attempts=attempts, sleep=sleeps.append, rng=random.Random(7))
    return RangesStore(client, TABLE, backoff), client, sleeps


def test_unprocessed_items_are_resent_until_every_one_landed() -> None:
    store, client, sleeps = store_with([10, 3, 0])
    wcu = store.write([put(n) for n in range(25)])
    assert [len(call) for call in client.calls] == [25, 10, 3]
    assert client.calls[1] == [put(n) for n in range(15, 25)]
    assert wcu == 25 and len(sleeps) == 2


def test_throttling_errors_back_off_exponentially_with_full_jitter() -> None:
    throttles = [error("ProvisionedThroughputExceededException"), error("ThrottlingException")] * 3
    store, client, sleeps = store_with([*throttles, 0])
    assert store.write([put(1)]) == 1
    assert len(client.calls) == 7 and len(sleeps) == 6
    for attempt, slept in enumerate(sleeps):
        assert 0 <= slept <= min(5.0, 0.05 * 2**attempt)
    assert len(set(sleeps)) == len(sleeps)  # jittered, not a fixed schedule


def test_the_backoff_is_capped() -> None:
    sleeps: list[float] = []
    backoff = Backoff(base=1.0, cap=2.0, attempts=50, sleep=sleeps.append, rng=random.Random(1))
    for attempt in range(20):
        backoff.wait(attempt, "x")
    assert max(sleeps) <= 2.0


def test_endless_throttling_gives_up_with_a_message_that_says_resume() -> None:
    store, client, _ = store_with([error("RequestLimitExceeded")] * 10, attempts=4)
    with pytest.raises(StoreError, match="still throttled after 4 retries; rerun the load to resume"):
        store.write([put(1)])
    assert len(client.calls) == 5


def test_partial_progress_resets_the_retry_budget() -> None:
    store, client, _ = store_with([24, 23, 22, 21, 20, 0], attempts=2)
    store.write([put(n) for n in range(25)])
    assert len(client.calls) == 6


def test_other_errors_are_not_retried() -> None:
    store, client, sleeps = store_with([error("ValidationException")])
    with pytest.raises(StoreError, match="BatchWriteItem on ranges"):
        store.write([put(1)])
    assert len(client.calls) == 1 and sleeps == []
