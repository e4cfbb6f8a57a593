"""zindex.dynamodb: the engine's lazily made client is made once, even when a search's or the
maintainer's parallel calls ask for it at once on a first request; its statistics read asks again
for the keys BatchGetItem leaves unprocessed."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from zindex import Attribute, IndexedTable, ZIndex
from zindex.dynamodb import STATISTICS_ROUNDS, IndexRepository
from zindex.errors import StatisticsError
from zorder import UInt

TABLE = IndexedTable(
    table="Things",
    key=("id",),
    attributes=(Attribute("x", UInt(8)), Attribute("y", UInt(8))),
    indexes=(ZIndex("things-z", ("x", "y"), bucket_bits=2),),
)


def test_parallel_first_calls_make_one_client(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[str] = []

    def slow_client(service: str, config: Any = None) -> object:
        made.append(service)
        time.sleep(0.05)  # what making a client takes: every thread arrives meanwhile
        return object()

    monkeypatch.setattr("boto3.client", slow_client)
    repository = IndexRepository(TABLE)
    with ThreadPoolExecutor(max_workers=8) as pool:
        clients = list(pool.map(lambda _n: repository.client, range(8)))
    assert made == ["dynamodb"]
    assert all(client is clients[0] for client in clients)


class _ThrottlingClient:
    """A BatchGetItem that leaves its keys unprocessed `throttled` times, then answers them."""

    def __init__(self, throttled: int) -> None:
        self.throttled, self.requests = throttled, []  # type: list[dict[str, Any]]

    def batch_get_item(self, RequestItems: dict[str, Any]) -> dict[str, Any]:
        self.requests.append(RequestItems)
        if len(self.requests) <= self.throttled:
            return {"Responses": {"Things": []}, "UnprocessedKeys": RequestItems}
        items = [{**key, "statistics": {"B": b"stats"}} for key in RequestItems["Things"]["Keys"]]
        return {"Responses": {"Things": items}, "UnprocessedKeys": {}}


def test_statistics_read_asks_again_for_unprocessed_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("zindex.dynamodb.time.sleep", lambda _seconds: None)
    client = _ThrottlingClient(throttled=2)
    statistics = IndexRepository(TABLE, client).get_statistics()  # type: ignore[arg-type]
    assert statistics == {"things-z": b"stats"}
    assert len(client.requests) == 3
    assert client.requests[1] == client.requests[0]  # the unprocessed keys, as DynamoDB returned them


def test_statistics_still_unprocessed_after_every_round_is_a_statistics_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("zindex.dynamodb.time.sleep", lambda _seconds: None)
    client = _ThrottlingClient(throttled=100)
    with pytest.raises(StatisticsError, match="unread"):
        IndexRepository(TABLE, client).get_statistics()  # type: ignore[arg-type]
    assert len(client.requests) == STATISTICS_ROUNDS
