"""The maintainer's handler on crafted stream batches (moto): it indexes, re-indexes, removes, leaves out
what it cannot encode without poisoning the batch, and reports only real failures."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest

from places import repository
from places.addressing import placement
from tests.functional.places.conftest import TABLE, FakeContext
from tests.functional.places.helpers import settings_for, stream_record

SETTINGS = settings_for(TABLE)
PLACE = {
    "id": "m1",
    "name": "Oslo",
    "latitude": Decimal("59.91"),
    "longitude": Decimal("10.75"),
    "population": 580000,
}


def handle(*records: dict[str, Any]) -> dict[str, Any]:
    from places.maintainer_handler import handler

    return handler({"Records": list(records)}, FakeContext(function_name="places-maintainer"))


def stored(key: str) -> dict[str, Any]:
    return repository.table(TABLE).get_item(Key={"id": key})["Item"]


def put(item: dict[str, Any]) -> dict[str, Any]:
    repository.table(TABLE).put_item(Item=item)
    return item


def test_insert_gets_its_address_and_the_write_back_is_a_no_op(aws: dict[str, Any]) -> None:
    assert handle(stream_record(put(dict(PLACE)))) == {"batchItemFailures": []}
    item = stored("m1")
    where = placement(SETTINGS, PLACE)
    assert (repository.binary(item["zaddr"]), item["zbucket"]) == (where.address, where.bucket)
    before = dict(item)
    assert handle(stream_record(item, "MODIFY", 2)) == {"batchItemFailures": []}  # its own MODIFY
    assert stored("m1") == before


def test_a_removed_dimension_takes_the_item_out_of_the_index(aws: dict[str, Any]) -> None:
    handle(stream_record(put({**PLACE, "id": "m2"})))
    repository.table(TABLE).update_item(Key={"id": "m2"}, UpdateExpression="REMOVE population")
    handle(stream_record(stored("m2"), "MODIFY", 3))
    assert "zaddr" not in stored("m2") and "zbucket" not in stored("m2")


def test_unencodable_items_are_left_out_logged_and_counted(
    aws: dict[str, Any], capsys: Any, caplog: pytest.LogCaptureFixture
) -> None:
    bad = put({**PLACE, "id": "m3", "latitude": "north"})
    good = put({**PLACE, "id": "m4"})
    assert handle(stream_record(bad, sequence=4), stream_record(good, sequence=5)) == {
        "batchItemFailures": []
    }
    assert "zaddr" not in stored("m3") and "zaddr" in stored("m4")
    assert any(getattr(r, "key", None) == "m3" and "latitude" in r.reason for r in caplog.records)
    assert '"UnencodableItems":[1.0]' in capsys.readouterr().out  # the EMF metric line


def test_an_unexpected_error_fails_only_its_record(
    aws: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = repository.set_placement

    def flaky(settings: Any, key: Any, *args: Any) -> None:
        if key == "m5":
            raise RuntimeError("throttled")
        real(settings, key, *args)

    monkeypatch.setattr(repository, "set_placement", flaky)
    response = handle(
        stream_record(put({**PLACE, "id": "m5"}), sequence=6),
        stream_record(put({**PLACE, "id": "m6"}), sequence=7),
    )
    assert response == {"batchItemFailures": [{"itemIdentifier": "6".zfill(21)}]}
    assert "zaddr" in stored("m6")


def test_remove_records_and_reserved_items_are_ignored(aws: dict[str, Any]) -> None:
    assert handle({**stream_record(dict(PLACE), sequence=8), "eventName": "REMOVE"}) == {
        "batchItemFailures": []
    }
    stats = {"id": SETTINGS.statistics_key, "statistics": b"x"}
    assert handle(stream_record(stats, sequence=9)) == {"batchItemFailures": []}
    assert json.dumps({"ok": True})  # nothing written: no exception above
