"""The invoices function's settings: its table (the invoices construct sets it)."""

from __future__ import annotations

from tatami_functions.common.settings import TableSettings, variable


class InvoicesSettings(TableSettings):
    table: str = variable("INVOICES_TABLE_NAME")
