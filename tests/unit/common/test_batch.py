"""Batches resend what DynamoDB leaves unprocessed, back off between rounds, and give up as a 503."""

from __future__ import annotations

from typing import Any

import pytest

from tatami_functions.common.batch import GET_BATCH, MAX_ROUNDS, WRITE_BATCH, backoff, get_all, write_all
from tatami_functions.common.dependencies import THROTTLED_RETRY_AFTER, DependencyError
from tatami_functions.common.repository import TableRepository


class Throttled(DependencyError):
    pass


class Table(TableRepository):
    """Answers each call from `answers(operation, request)` and records the calls."""

    noun, unavailable = "the test table", Throttled

    def __init__(self, answers: Any) -> None:
        super().__init__("T", client=object())  # type: ignore[arg-type]
        self.answers, self.calls = answers, []

    def _call(self, operation: str, /, **request: Any) -> Any:
        self.calls.append((operation, request["RequestItems"]["T"]))
        return self.answers(operation, request["RequestItems"]["T"])


def test_writes_go_in_batches_of_25_and_the_unprocessed_are_resent() -> None:
    left = {"first": True}

    def answer(_operation: str, batch: list[Any]) -> dict[str, Any]:
        if left.pop("first", False):
            return {"UnprocessedItems": {"T": batch[-3:]}}
        return {"UnprocessedItems": {}}

    table, slept = Table(answer), []
    assert (
        write_all(
            table, [{"PutRequest": {"Item": {"n": {"N": str(i)}}}} for i in range(60)], sleep=slept.append
        )
        == 60
    )
    assert [len(batch) for _, batch in table.calls] == [WRITE_BATCH, 3, WRITE_BATCH, 10]
    assert len(slept) == 1


def test_writes_left_unprocessed_after_every_round_are_a_503_saying_when_to_retry() -> None:
    table = Table(lambda _operation, batch: {"UnprocessedItems": {"T": batch}})
    with pytest.raises(Throttled) as raised:
        write_all(table, [{"PutRequest": {"Item": {}}}] * 2, sleep=lambda _s: None)
    assert len(table.calls) == MAX_ROUNDS
    assert raised.value.retry_after == THROTTLED_RETRY_AFTER
    assert "left 2 items unprocessed" in str(raised.value)


def test_reads_gather_every_round_and_resend_the_unprocessed_keys() -> None:
    def answer(_operation: str, request: dict[str, Any]) -> dict[str, Any]:
        keys = request["Keys"]
        unprocessed = {"T": {**request, "Keys": keys[1:]}} if len(keys) > 1 and len(keys) % 2 else {}
        return {"Responses": {"T": keys[:1] if unprocessed else keys}, "UnprocessedKeys": unprocessed}

    table = Table(answer)
    keys = [{"k": {"S": str(i)}} for i in range(GET_BATCH + 3)]
    found = get_all(table, keys, sleep=lambda _s: None, ConsistentRead=True)
    assert sorted(item["k"]["S"] for item in found) == sorted(key["k"]["S"] for key in keys)
    assert all(request["ConsistentRead"] for _, request in table.calls)


def test_backoff_grows_and_stays_under_its_cap() -> None:
    assert all(0 <= backoff(1) <= 0.1 for _ in range(100))
    assert all(0 <= backoff(20) <= 2.0 for _ in range(100))
