"""The campaigns function's settings: its table (`infra/services/campaigns.py` sets it)."""

from __future__ import annotations

from tatami_functions.common.settings import TableSettings, variable


class CampaignsSettings(TableSettings):
    table: str = variable("CAMPAIGN_USERS_TABLE_NAME")
