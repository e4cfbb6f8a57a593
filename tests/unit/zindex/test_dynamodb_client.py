"""zindex.dynamodb: the engine's lazily made client is made once, even when a search's or the
maintainer's parallel calls ask for it at once on a first request."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from zindex import Attribute, IndexedTable, ZIndex
from zindex.dynamodb import IndexRepository
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
