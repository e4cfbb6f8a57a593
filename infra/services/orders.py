"""Seed 002's orders: the Orders table with its three GSIs and the Customers summary table
(`tatami_functions.orders.table`), the Z index `GET /orders/search` reads, and the API function on
`/orders` and `/customers`."""

from __future__ import annotations

from aws_cdk import CfnOutput, Stack
from constructs import Construct

from infra.constructs.api_function import ApiFunction
from infra.constructs.shared import Shared
from infra.constructs.table_grants import grant_indexes, grant_table
from infra.patterns import ZOrderIndex
from tatami_functions import stack_outputs
from tatami_functions.orders import keys
from tatami_functions.orders.settings import OrdersTables
from tatami_functions.orders.table import CUSTOMERS, ORDERS, ORDERS_ZINDEX

SERVICE = "orders"


class OrdersService(Construct):
    """Orders with CustomerOrders, CustomerStatusOrders and the write-sharded StatusOrders GSI, plus the
    Customers summary table the order transaction updates.

    `status_shards` is N of `Status#n`; readers query 1..N, so it may grow but never shrink.

    For example (not run as a doctest)::

        OrdersService(stack, "OrdersModel", shared=shared, status_shards=10)
    """

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        shared: Shared,
        status_shards: int = keys.DEFAULT_SHARDS,
    ) -> None:
        super().__init__(scope, construct_id)
        if not 1 <= status_shards <= keys.MAX_SHARDS:
            raise ValueError(
                f"status_shards {status_shards} must be within 1..{keys.MAX_SHARDS} (one parallel Query each)"
            )
        self.orders = shared.data_table(self, "Orders", ORDERS, output=stack_outputs.OUTPUT_ORDERS_TABLE)
        self.customers = shared.data_table(
            self, "Customers", CUSTOMERS, output=stack_outputs.OUTPUT_CUSTOMERS_TABLE
        )
        self.function = ApiFunction(
            self,
            "Function",
            shared=shared,
            service=SERVICE,
            uses_zorder=True,  # GET /orders/search runs the engine
            environment=OrdersTables.environment(
                orders=self.orders.table_name, customers=self.customers.table_name, shards=status_shards
            ),
            description="The orders' REST routes (seed 002)",
        )
        # GET /orders/search: date x total x status through the engine
        self.index = ZOrderIndex(
            self,
            "ZIndex",
            table=self.orders,
            declaration=ORDERS_ZINDEX,
            functions=shared.pattern_functions(SERVICE),
        )
        self.index.grant_search(self.function)
        # The order's Put and the summary's Update (one transaction), the status change's Update, reads
        # by key and one Query per index; never a delete.
        grant_table(self.function, self.orders, "GetItem", "PutItem", "UpdateItem")
        grant_indexes(self.function, self.orders, [index.name for index in ORDERS.indexes], "Query")
        grant_table(self.function, self.customers, "GetItem", "UpdateItem")
        stack = Stack.of(self)
        CfnOutput(stack, stack_outputs.OUTPUT_ORDERS_ZINDEX, value=self.index.declaration.to_json())
