"""The lockers function's settings: its table (`infra/services/lockers.py` sets it)."""

from __future__ import annotations

from tatami_functions.common.settings import TableSettings, variable


class LockersSettings(TableSettings):
    table: str = variable("LOCKERS_TABLE_NAME")
