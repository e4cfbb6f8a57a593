"""Lockers on DynamoDB Local: begins_with drill-down on location keys; a move is one transaction."""

from __future__ import annotations

import pytest

from tatami_functions.lockers.exceptions import LockerNotFoundError
from tatami_functions.lockers.locations import Locker, area_prefix
from tatami_functions.lockers.repository import LockersRepository
from tests.support import models_workshop
from tests.support.models_workshop import Workshop

workshop = models_workshop.workshop  # the session fixture: model tables on DynamoDB Local, seed loaded


@pytest.fixture
def lockers(workshop: Workshop) -> LockersRepository:
    workshop.recorder.clear()
    return LockersRepository(workshop.table("LockersTableName"), client=workshop.client)


def ids(found: list[dict[str, str]]) -> list[str]:
    return [locker["locker_id"] for locker in found]


def test_the_seeds_kioicho_query_reads_only_kioicho(lockers: LockersRepository, workshop: Workshop) -> None:
    found = lockers.in_area("東京都", area_prefix("千代田区#紀尾井町"), 25, None).items
    assert ids(found) == ["kioi-1", "kioi-2"]
    (call,) = workshop.recorder.calls
    assert (call.operation, call.index) == ("Query", None) and call.scanned == call.count == 2


def test_drilling_down_from_prefecture_to_city(lockers: LockersRepository) -> None:
    tokyo = ["marunouchi-1", "kioi-1", "kioi-2", "jingumae-1"]  # UTF-8 order of the location keys
    assert ids(lockers.in_area("東京都", None, 25, None).items) == tokyo
    chiyoda = lockers.in_area("東京都", area_prefix("千代田区"), 25, None).items
    assert ids(chiyoda) == ["marunouchi-1", "kioi-1", "kioi-2"]
    assert ids(lockers.in_area("千葉県", area_prefix("千代田区"), 25, None).items) == []


def test_a_locker_moves_in_one_transaction_and_is_found_by_id(
    lockers: LockersRepository, workshop: Workshop
) -> None:
    assert lockers.put(Locker("move-1", "東京都", "港区#六本木", "n", "a")) is True
    assert lockers.put(Locker("move-1", "東京都", "千代田区#丸の内", "n", "a")) is False
    assert ids(lockers.in_area("東京都", area_prefix("港区"), 25, None).items) == []
    workshop.recorder.clear()
    assert lockers.get("move-1").location == "千代田区#丸の内"
    assert workshop.recorder.operations() == [("GetItem", None)]
    lockers.delete("move-1")
    with pytest.raises(LockerNotFoundError):
        lockers.get("move-1")
