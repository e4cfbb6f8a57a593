"""The carts function's settings: its table (the ModelsWorkshop construct sets it)."""

from __future__ import annotations

from tatami_functions.common.settings import TableSettings, variable


class CartsSettings(TableSettings):
    table: str = variable("CARTS_TABLE")
