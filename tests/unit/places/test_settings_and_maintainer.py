"""Settings travel through the environment the construct writes; the maintainer decides per record."""

from __future__ import annotations

import base64
from decimal import Decimal
from typing import Any

import pytest

from places import maintainer, repository
from places.addressing import placement
from places.exceptions import StaleImageError
from places.maintainer import Outcome, image_of, index_item
from places.settings import IndexSettings
from zorder import Fixed, Schema, UInt

SCHEMA = Schema.of(latitude=Fixed(-90, 90, 16), longitude=Fixed(-180, 180, 16), population=UInt(32))
INDEX = IndexSettings("T", "places-z", SCHEMA, bucket_bits=6)
ITEM = {"id": "a", "latitude": Decimal("1.5"), "longitude": Decimal("2.5"), "population": 10}


def test_environment_round_trip() -> None:
    assert IndexSettings.from_env(INDEX.to_env()) == INDEX
    with pytest.raises(RuntimeError, match="ZINDEX_TABLE"):
        IndexSettings.from_env({})


def test_image_of_decodes_stream_binaries() -> None:
    image = image_of({"zaddr": {"B": base64.b64encode(b"\x01\x02").decode()}, "population": {"N": "7"}})
    assert repository.binary(image["zaddr"]) == b"\x01\x02" and image["population"] == 7


@pytest.fixture
def writes(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any]]:
    calls: list[tuple[str, Any]] = []
    monkeypatch.setattr(
        repository, "set_placement", lambda s, key, where, image: calls.append(("set", where))
    )
    monkeypatch.setattr(repository, "remove_placement", lambda s, key, image: calls.append(("remove", key)))
    monkeypatch.setattr(maintainer.metrics, "add_metric", lambda **kwargs: None)
    return calls


def test_outcomes(writes: list[tuple[str, Any]]) -> None:
    where = placement(INDEX, ITEM)
    assert index_item(INDEX, ITEM) is Outcome.WRITTEN and writes == [("set", where)]
    placed = {**ITEM, "zaddr": where.address, "zbucket": where.bucket}
    assert index_item(INDEX, placed) is Outcome.UNCHANGED and len(writes) == 1  # the write-back's own MODIFY
    moved = {**placed, "population": 11}
    assert index_item(INDEX, moved) is Outcome.WRITTEN and writes[-1][1] != where
    assert index_item(INDEX, {k: v for k, v in placed.items() if k != "population"}) is Outcome.REMOVED
    assert index_item(INDEX, {"id": "b", "latitude": 1}) is Outcome.ABSENT
    assert index_item(INDEX, {**placed, "latitude": "north"}) is Outcome.UNENCODABLE
    assert index_item(INDEX, {"id": "__zindex__#places-z", "statistics": b""}) is Outcome.IGNORED


def test_a_newer_write_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    def stale(*_: Any) -> None:
        raise StaleImageError("a")

    monkeypatch.setattr(repository, "set_placement", stale)
    assert index_item(INDEX, ITEM) is Outcome.STALE
