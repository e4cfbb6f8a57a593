"""Campaign targeting on DynamoDB Local: the selective GSIs intersected; a profile is one GetItem."""

from __future__ import annotations

from tatami_functions.campaigns.conditions import conditions
from tatami_functions.campaigns.intersect import LOWEST, SortedIds, intersect
from tatami_functions.campaigns.repository import CampaignUsersRepository, IndexReads
from tatami_functions.campaigns.table import CAMPAIGN_USERS
from tests.support import models_workshop
from tests.support.models_workshop import Workshop

workshop = models_workshop.workshop  # the session fixture: model tables on DynamoDB Local, seed loaded


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
