"""The carts function's settings: its table (`infra/services/carts.py` sets it)."""

from __future__ import annotations

from tatami_functions.common.settings import TableSettings, variable


class CartsSettings(TableSettings):
    table: str = variable("CARTS_TABLE_NAME")
