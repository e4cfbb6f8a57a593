"""The invoices service (seed 004's adjacency-list lab): its table, its API function and its routes.

The table is `tatami_functions.invoices.table.INVOICES` (the adjacency list and its inverted index);
the function Queries both and writes an invoice's partition in transactions of Puts and Deletes.
"""

from __future__ import annotations

from constructs import Construct

from infra.constructs.api_function import ApiFunction
from infra.constructs.shared import Shared
from infra.constructs.table_grants import grant_indexes, grant_table
from tatami_functions import stack_outputs
from tatami_functions.invoices.settings import InvoicesSettings
from tatami_functions.invoices.table import INVERTED, INVOICES


class InvoicesService(Construct):
    """The InvoiceAndBilling table (`Table`) and the function (`Function`) behind its routes."""

    def __init__(self, scope: Construct, construct_id: str, *, shared: Shared) -> None:
        super().__init__(scope, construct_id)
        self.table = shared.data_table(self, "Table", INVOICES, output=stack_outputs.OUTPUT_INVOICES_TABLE)
        self.function = ApiFunction(
            self,
            "Function",
            shared=shared,
            service="invoices",
            environment=InvoicesSettings.environment(table=self.table.table_name),
            description="Invoices (seed 004's adjacency-list lab): REST routes",
        )
        grant_table(self.function, self.table, "Query", "PutItem", "DeleteItem")
        grant_indexes(self.function, self.table, [INVERTED.name], "Query")
