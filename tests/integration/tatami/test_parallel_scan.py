"""tatami/scan.py on DynamoDB Local: every item once across segments; an interrupted scan resumes."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from tatami.local.engines import processes as engines
from tatami.scan import Checkpoint, parallel_scan

ITEMS = 600


@pytest.fixture(scope="module")
def table(dynamodb_local: str) -> tuple[Any, str]:
    client = engines.dynamodb_client(dynamodb_local)
    client.create_table(
        TableName="ScanMe",
        BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
    )
    for start in range(0, ITEMS, 25):
        client.batch_write_item(
            RequestItems={
                "ScanMe": [
                    {"PutRequest": {"Item": {"id": {"S": f"item-{n:04d}"}, "pad": {"S": "x" * 200}}}}
                    for n in range(start, start + 25)
                ]
            }
        )
    return client, "ScanMe"


def test_every_item_is_read_once_over_all_segments(table: tuple[Any, str]) -> None:
    client, name = table
    seen: list[str] = []
    lock = threading.Lock()

    def collect(_segment: int, items: list[dict[str, Any]]) -> None:
        with lock:
            seen.extend(item["id"]["S"] for item in items)

    summary = parallel_scan(client, name, 4, collect, progress=False, page_size=50)
    assert sorted(seen) == [f"item-{n:04d}" for n in range(ITEMS)]
    assert summary.items == ITEMS and summary.pages >= ITEMS // 50
    assert summary.consumed_rcu > 0


def test_an_interrupted_scan_resumes_without_skipping(table: tuple[Any, str], tmp_path: Path) -> None:
    client, name = table
    seen: set[str] = set()
    calls = {"n": 0}

    def crash_after_three_pages(_segment: int, items: list[dict[str, Any]]) -> None:
        calls["n"] += 1
        if calls["n"] > 3:
            raise KeyboardInterrupt
        seen.update(item["id"]["S"] for item in items)

    checkpoint_path = tmp_path / "scan.json"
    with pytest.raises(KeyboardInterrupt):
        parallel_scan(
            client,
            name,
            2,
            crash_after_three_pages,
            progress=False,
            page_size=40,
            checkpoint=Checkpoint.open(checkpoint_path, name, 2),
        )
    assert checkpoint_path.exists() and len(seen) < ITEMS
    resumed = parallel_scan(
        client,
        name,
        2,
        lambda _s, items: seen.update(i["id"]["S"] for i in items),
        progress=False,
        page_size=40,
        checkpoint=Checkpoint.open(checkpoint_path, name, 2),
    )
    assert len(seen) == ITEMS
    assert resumed.resumed_segments >= 1 and resumed.items < ITEMS
    assert not checkpoint_path.exists()  # a finished scan leaves no checkpoint behind
