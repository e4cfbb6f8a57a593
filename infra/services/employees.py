"""The employees service (seed 004's lab): its table, its API function and its routes.

The table is `tatami_functions.employees.table.EMPLOYEES` (three GSIs: overloaded, sparse,
composite); the function Queries them, reads one employee by GetItem, and writes an employee's
partition in transactions of Puts and Deletes.
"""

from __future__ import annotations

from constructs import Construct

from infra.constructs.api_function import ApiFunction
from infra.constructs.shared import Shared
from infra.constructs.table_grants import grant_indexes, grant_table
from tatami_functions import stack_outputs
from tatami_functions.employees.settings import EmployeesSettings
from tatami_functions.employees.table import EMPLOYEES


class EmployeesService(Construct):
    """The employees table (`Table`) and the function (`Function`) behind `/employees`."""

    def __init__(self, scope: Construct, construct_id: str, *, shared: Shared) -> None:
        super().__init__(scope, construct_id)
        self.table = shared.data_table(self, "Table", EMPLOYEES, output=stack_outputs.OUTPUT_EMPLOYEES_TABLE)
        self.function = ApiFunction(
            self,
            "Function",
            shared=shared,
            service="employees",
            environment=EmployeesSettings.environment(table=self.table.table_name),
            description="Employees (seed 004's lab): REST routes",
        )
        grant_table(self.function, self.table, "GetItem", "Query", "PutItem", "DeleteItem")
        grant_indexes(self.function, self.table, [index.name for index in EMPLOYEES.indexes], "Query")
