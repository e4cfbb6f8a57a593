"""The lockers function's settings: its table (the ModelsWorkshop construct sets it)."""

from __future__ import annotations

from tatami_functions.common.settings import TableSettings, variable


class LockersSettings(TableSettings):
    table: str = variable("LOCKERS_TABLE")
