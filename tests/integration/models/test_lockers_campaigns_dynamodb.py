"""Lockers and campaign targeting on DynamoDB Local: begins_with drill-down; selective GSIs intersected."""

from __future__ import annotations

import pytest

from tatami_functions.campaigns.conditions import conditions
from tatami_functions.campaigns.intersect import LOWEST, SortedIds, intersect
from tatami_functions.campaigns.repository import CampaignUsersRepository, IndexReads
from tatami_functions.campaigns.table import CAMPAIGN_USERS
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


def test_campaign_candidates_intersect_the_three_selective_gsis(workshop: Workshop) -> None:
    users = CampaignUsersRepository(workshop.table("CampaignUsersTableName"), client=workshop.client)
    reads = IndexReads()
    asked = conditions(prefecture="千葉県", birth_month=12, order_month=12)
    workshop.recorder.clear()
    found, resume = intersect([SortedIds(users.seeker(c, reads), 100) for c in asked], LOWEST, 100)
    assert found == ["MAX", "RIN"] and resume is None  # the seed's Christmas sticker goes to these two
    selective = {("Query", index.name) for index in CAMPAIGN_USERS.indexes}
    assert set(workshop.recorder.operations()) == selective  # no Scan, no read of the base table
    assert all(call.scanned == call.count for call in workshop.recorder.calls)  # keys only, no filter
    assert reads.items_read["prefecture"] <= 5 and reads.items_read["birth_month"] <= 4


def test_a_campaign_profile_is_one_getitem(workshop: Workshop) -> None:
    users = CampaignUsersRepository(workshop.table("CampaignUsersTableName"), client=workshop.client)
    workshop.recorder.clear()
    assert users.profile("TOM") == {"user_id": "TOM", "prefecture": "千葉県", "last_order_month": 12}
    assert workshop.recorder.operations() == [("GetItem", None)]
