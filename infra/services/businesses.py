"""Seed 002's business listings: the Business table with its sparse BusinessLocation GSI
(`tatami_functions.businesses.table`) and the API function on `/businesses`."""

from __future__ import annotations

from constructs import Construct

from infra.constructs.api_function import ApiFunction
from infra.constructs.shared import Shared
from infra.constructs.table_grants import grant_indexes, grant_table
from tatami_functions import stack_outputs
from tatami_functions.businesses.settings import BusinessesSettings
from tatami_functions.businesses.table import BUSINESSES


class BusinessesService(Construct):
    """Business with the sparse BusinessLocation GSI (BusinessType + `Country:State:City`).

    For example (not run as a doctest)::

        BusinessesService(stack, "BusinessesModel", shared=shared)
    """

    def __init__(self, scope: Construct, construct_id: str, *, shared: Shared) -> None:
        super().__init__(scope, construct_id)
        self.businesses = shared.data_table(
            self, "Businesses", BUSINESSES, output=stack_outputs.OUTPUT_BUSINESSES_TABLE
        )
        self.function = ApiFunction(
            self,
            "Function",
            shared=shared,
            service="businesses",
            environment=BusinessesSettings.environment(table=self.businesses.table_name),
            description="The business listings' REST routes (seed 002)",
        )
        grant_table(self.function, self.businesses, "GetItem", "PutItem")
        grant_indexes(self.function, self.businesses, [i.name for i in BUSINESSES.indexes], "Query")
