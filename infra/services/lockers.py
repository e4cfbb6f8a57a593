"""The lockers service (seed 004): its table, its API function and routes."""

from __future__ import annotations

from constructs import Construct

from infra.constructs.api_function import ApiFunction
from infra.constructs.shared import Shared
from infra.constructs.table_grants import grant_table
from tatami_functions import stack_outputs
from tatami_functions.lockers.settings import LockersSettings
from tatami_functions.lockers.table import LOCKERS


class LockersService(Construct):
    """The lockers table (`.table`, as "Default": it keeps the logical ID it had as the scope's
    "Lockers") and the function serving the locker routes.

    For example (not run as a doctest)::

        LockersService(workshop, "Lockers", shared=shared)
    """

    def __init__(self, scope: Construct, construct_id: str, *, shared: Shared) -> None:
        super().__init__(scope, construct_id)
        self.table = shared.data_table(self, "Default", LOCKERS, output=stack_outputs.OUTPUT_LOCKERS_TABLE)
        self.function = ApiFunction(
            self,
            "Function",
            shared=shared,
            service="lockers",
            environment=LockersSettings.environment(table=self.table.table_name),
            description="Pick-up lockers of seed 004: drill-down by area path (REST routes)",
        )
        # A move puts the locker and its pointer and deletes the old row together (one transaction).
        grant_table(self.function, self.table, "GetItem", "Query", "PutItem", "DeleteItem")
