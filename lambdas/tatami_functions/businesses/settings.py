"""The businesses function's settings: its table (infra/services/businesses.py sets it)."""

from __future__ import annotations

from tatami_functions.common.settings import TableSettings, variable


class BusinessesSettings(TableSettings):
    table: str = variable("BUSINESSES_TABLE_NAME")
