"""The carts service (seed 004): its table, its API function and routes."""

from __future__ import annotations

from constructs import Construct

from infra.constructs.api_function import ApiFunction
from infra.constructs.shared import Shared
from infra.constructs.table_grants import grant_indexes, grant_table
from tatami_functions import stack_outputs
from tatami_functions.carts.settings import CartsSettings
from tatami_functions.carts.table import BY_ROW, CARTS


class CartsService(Construct):
    """The carts table (`.table`, as "Default": it keeps the logical ID it had as the scope's "Carts")
    and the function serving the cart routes.

    For example (not run as a doctest)::

        CartsService(workshop, "Carts", shared=shared)
    """

    def __init__(self, scope: Construct, construct_id: str, *, shared: Shared) -> None:
        super().__init__(scope, construct_id)
        self.table = shared.data_table(self, "Default", CARTS, output=stack_outputs.OUTPUT_CARTS_TABLE)
        self.function = ApiFunction(
            self,
            "Function",
            shared=shared,
            service="carts",
            environment=CartsSettings.environment(table=self.table.table_name),
            description="Carts of seed 004: one row per value, the overloaded GSI (REST routes)",
        )
        # An item's rows are put or deleted together (one transaction); one value is updated alone.
        grant_table(self.function, self.table, "GetItem", "Query", "PutItem", "UpdateItem", "DeleteItem")
        grant_indexes(self.function, self.table, [BY_ROW.name], "Query")
