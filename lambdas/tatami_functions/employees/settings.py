"""The employees function's settings: its table (the employees construct sets it)."""

from __future__ import annotations

from tatami_functions.common.settings import TableSettings, variable


class EmployeesSettings(TableSettings):
    table: str = variable("EMPLOYEES_TABLE_NAME")
