"""The invoices service (seed 004's adjacency-list lab): its table, its API function and its routes.

The table is `tatami_functions.invoices.table.INVOICES` (the adjacency list and its inverted index);
the function Queries both and writes an invoice's partition in transactions of Puts and Deletes.
"""

from __future__ import annotations

from aws_cdk import CfnOutput, Stack
from constructs import Construct

from infra.constructs.data_table import schema_props
from infra.constructs.service_api import Route
from infra.constructs.service_function import ServiceFunction
from infra.constructs.shared import Shared
from infra.constructs.table_grants import grant_indexes, grant_table
from tatami_functions import stack_outputs
from tatami_functions.invoices.settings import InvoicesSettings
from tatami_functions.invoices.table import INVERTED, INVOICES

ROUTES = [
    *(Route(method, "/invoices/{id}") for method in ("GET", "PUT", "DELETE")),
    Route("GET", "/customers/{id}/invoices"),  # {id}: the orders service owns /customers/{id}
    Route("GET", "/bills/{id}"),
]


class InvoicesService(Construct):
    """The InvoiceAndBilling table (`Table`) and the function (`Function`) behind its routes."""

    def __init__(self, scope: Construct, construct_id: str, *, shared: Shared) -> None:
        super().__init__(scope, construct_id)
        self.table = shared.data_table(self, "Table", **schema_props(INVOICES))
        CfnOutput(Stack.of(self), stack_outputs.OUTPUT_INVOICES_TABLE, value=self.table.table_name)
        self.function = ServiceFunction(
            self,
            "Function",
            layers=shared.layers,
            service="invoices",
            handler="tatami_functions.invoices.handler.handler",
            environment=InvoicesSettings.environment(table=self.table.table_name),
            description="Invoices (seed 004's adjacency-list lab): REST routes",
        )
        grant_table(self.function, self.table, "Query", "PutItem", "DeleteItem")
        grant_indexes(self.function, self.table, [INVERTED.name], "Query")
        shared.page_tokens.grant(self.function)
        shared.api.add_routes(self.function, ROUTES)
