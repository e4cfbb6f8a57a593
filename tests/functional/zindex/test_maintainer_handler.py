"""The engine's maintainer Lambda on crafted stream batches (moto): it indexes, re-indexes, removes,
leaves out what it cannot encode without poisoning the batch, applies only the newest image of a key,
reports only real failures and counts a batch once."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import boto3
import pytest

from tests.support.lambda_runtime import FakeContext, moto_environment
from tests.support.zindex import create_table, places_on, stream_record
from zindex import lambda_handler
from zindex.dynamodb import IndexRepository
from zindex.dynamojson import to_item, to_wire_item
from zindex.keys import index_keys

TABLE = places_on("places")
PLACE = {
    "id": "m1",
    "name": "Oslo",
    "latitude": Decimal("59.91"),
    "longitude": Decimal("10.75"),
    "population": 580000,
}


@pytest.fixture
def aws(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    env = {"POWERTOOLS_SERVICE_NAME": "places", "ZINDEX_SPEC": TABLE.to_json(), "ZINDEX_BATCH_SIZE": "3"}
    with moto_environment(env):
        monkeypatch.setattr(lambda_handler.metrics, "namespace", "Test")
        lambda_handler.repository.cache_clear()
        client = boto3.client("dynamodb")
        create_table(client, TABLE)
        yield client
        lambda_handler.repository.cache_clear()


def handle(*records: dict[str, Any]) -> dict[str, Any]:
    return lambda_handler.handler({"Records": list(records)}, FakeContext("places-maintainer"))  # type: ignore[no-any-return]


def put(client: Any, item: dict[str, Any]) -> dict[str, Any]:
    client.put_item(TableName=TABLE.table, Item=to_wire_item(item))
    return item


def stored(client: Any, key: str) -> dict[str, Any]:
    return to_item(client.get_item(TableName=TABLE.table, Key={"id": {"S": key}})["Item"])


def test_an_insert_gets_its_keys_and_the_write_back_is_a_no_op(aws: Any) -> None:
    assert handle(stream_record(put(aws, dict(PLACE)))) == {"batchItemFailures": []}
    item = stored(aws, "m1")
    assert {k: item[k] for k in TABLE.written} == index_keys(TABLE, PLACE)
    before = dict(item)
    assert handle(stream_record(item, "MODIFY", 2)) == {"batchItemFailures": []}  # its own MODIFY
    assert stored(aws, "m1") == before


def test_a_removed_attribute_takes_the_item_out_of_every_index(aws: Any) -> None:
    handle(stream_record(put(aws, {**PLACE, "id": "m2"})))
    aws.update_item(TableName=TABLE.table, Key={"id": {"S": "m2"}}, UpdateExpression="REMOVE population")
    handle(stream_record(stored(aws, "m2"), "MODIFY", 3))
    assert not set(TABLE.written) & set(stored(aws, "m2"))


def test_unencodable_items_are_left_out_logged_and_counted(
    aws: Any, capsys: Any, caplog: pytest.LogCaptureFixture
) -> None:
    bad = put(aws, {**PLACE, "id": "m3", "latitude": "north"})
    good = put(aws, {**PLACE, "id": "m4"})
    assert handle(stream_record(bad, sequence=4), stream_record(good, sequence=5)) == {
        "batchItemFailures": []
    }
    assert "zaddr" not in stored(aws, "m3") and "zaddr" in stored(aws, "m4")
    assert any(getattr(r, "key", None) == "m3" and "latitude" in r.reason for r in caplog.records)
    assert '"UnencodableItems":[1.0]' in capsys.readouterr().out  # the EMF metric line


def test_one_metric_per_batch_counts_every_address_written(aws: Any, capsys: Any) -> None:
    records = [stream_record(put(aws, {**PLACE, "id": f"c{n}"}), sequence=10 + n) for n in range(3)]
    handle(*records)
    metrics = [json.loads(line) for line in capsys.readouterr().out.splitlines() if '"_aws"' in line]
    assert [m["AddressesWritten"] for m in metrics] == [[3.0]]  # one value, not one per record


def test_the_index_lag_metric_is_the_age_of_the_batchs_oldest_record(aws: Any, capsys: Any) -> None:
    records = [stream_record(put(aws, {**PLACE, "id": f"l{n}"}), sequence=30 + n) for n in range(2)]
    now = time.time()
    records[0]["dynamodb"]["ApproximateCreationDateTime"] = int(now) - 90
    records[1]["dynamodb"]["ApproximateCreationDateTime"] = int(now) - 5
    handle(*records)
    (metric,) = [json.loads(line) for line in capsys.readouterr().out.splitlines() if '"_aws"' in line]
    (lag,) = metric[lambda_handler.LAG_METRIC]
    assert 90 <= lag < 90 + (time.time() - now) + 1  # the oldest record's wait, not the newest's


def test_only_the_newest_image_of_a_key_is_applied(aws: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    first = {**PLACE, "id": "m7", "population": 10}
    latest = put(aws, {**PLACE, "id": "m7", "population": 20})
    writes: list[Any] = []
    real = IndexRepository.write_index_keys
    monkeypatch.setattr(
        IndexRepository, "write_index_keys", lambda self, *a: writes.append(a) or real(self, *a)
    )
    assert handle(stream_record(first, sequence=20), stream_record(latest, "MODIFY", 21)) == {
        "batchItemFailures": []
    }
    assert len(writes) == 1 and stored(aws, "m7")["zaddr"] == index_keys(TABLE, latest)["zaddr"]


def test_an_unexpected_error_fails_only_its_record(aws: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    real = IndexRepository.write_index_keys

    def flaky(self: IndexRepository, key: Any, *args: Any) -> None:
        if key["id"] == "m5":
            raise RuntimeError("throttled")
        real(self, key, *args)

    monkeypatch.setattr(IndexRepository, "write_index_keys", flaky)
    response = handle(
        stream_record(put(aws, {**PLACE, "id": "m5"}), sequence=6),
        stream_record(put(aws, {**PLACE, "id": "m6"}), sequence=7),
    )
    assert response == {"batchItemFailures": [{"itemIdentifier": "6".zfill(21)}]}
    assert "zaddr" in stored(aws, "m6")


def test_deletions_and_the_engines_own_items_write_nothing(aws: Any) -> None:
    assert handle(stream_record(dict(PLACE), "REMOVE", sequence=8)) == {"batchItemFailures": []}
    statistics = {"id": "__zindex__#places-z", "statistics": b"x"}
    assert handle(stream_record(statistics, sequence=9)) == {"batchItemFailures": []}
    assert "zaddr" not in to_item(
        aws.get_item(TableName=TABLE.table, Key={"id": {"S": "__zindex__#places-z"}}).get("Item", {})
    )


def test_the_status_item_counts_entries_and_says_when_a_full_batch_left_a_backlog(aws: Any) -> None:
    handle(*[stream_record(put(aws, {**PLACE, "id": f"s{n}"}), sequence=30 + n) for n in range(3)])
    status = IndexRepository(TABLE, aws).get_status()
    assert status["entries#all"] == 3 and status["batch_full"] is True  # ZINDEX_BATCH_SIZE is 3
    handle(stream_record(put(aws, {**PLACE, "id": "s9"}), sequence=40))
    status = IndexRepository(TABLE, aws).get_status()
    assert status["entries#all"] == 4 and status["batch_full"] is False


def test_the_echo_of_its_own_status_write_is_not_recorded_again(aws: Any) -> None:
    handle(stream_record(put(aws, {**PLACE, "id": "e1"}), sequence=50))
    repository = IndexRepository(TABLE, aws)
    before = repository.get_status()
    echo = stream_record({**before, "id": "__zindex__#status"}, "MODIFY", sequence=51)
    assert handle(echo) == {"batchItemFailures": []}
    assert repository.get_status() == before  # no write, so no new record and no endless loop
    handle(echo, stream_record(put(aws, {**PLACE, "id": "e2"}), sequence=52))
    assert repository.get_status()["entries#all"] == before["entries#all"] + 1
