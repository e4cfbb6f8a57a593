"""The invoices lab's settings: its table (the InvoicesLab construct sets it)."""

from __future__ import annotations

from tatami_functions.common.settings import TableSettings, variable


class InvoicesSettings(TableSettings):
    table: str = variable("INVOICES_TABLE")
