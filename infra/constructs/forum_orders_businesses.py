"""The data models of seeds 001 and 002: Forum (Forum/Thread/Reply), Orders (+ Customers), Businesses.

A table per model, as the seeds draw them, each built from `forum_orders_businesses_schema` (the
key schemas tests share) with the production defaults of `DataTable`. One API function per model
(package `models`), least-privilege grants, and the page-token key for the list routes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from aws_cdk import CfnOutput, Stack
from aws_cdk import aws_dynamodb as dynamodb
from constructs import Construct

from infra.constructs import forum_orders_businesses_schema as schema
from infra.constructs.data_table import DataTable
from infra.constructs.service_api import Route
from infra.constructs.service_function import ServiceFunction
from infra.constructs.shared import Shared
from infra.constructs.table_grants import grant_indexes, grant_table
from infra.constructs.zorder_index import ZOrderIndex
from tatami_functions import stack_outputs
from tatami_functions.businesses.settings import BusinessesSettings
from tatami_functions.forum.settings import ForumTables
from tatami_functions.orders import keys as order_keys
from tatami_functions.orders.search import ORDERS
from tatami_functions.orders.settings import OrdersTables

FORUM_ROUTES = (
    Route("GET", "/forums"),
    Route("GET", "/forums/{forum}"),
    Route("GET", "/forums/{forum}/threads"),
    Route("GET", "/forums/{forum}/threads/{subject}"),
    Route("GET", "/forums/{forum}/threads/{subject}/replies"),
)
ORDERS_ROUTES = (
    Route("GET", "/orders/search"),
    Route("POST", "/orders"),
    Route("GET", "/orders", required_query=("status",)),
    Route("GET", "/orders/{id}"),
    Route("PATCH", "/orders/{id}"),
    Route("GET", "/customers/{id}"),
    Route("GET", "/customers/{id}/orders"),
)
BUSINESSES_ROUTES = (
    Route("GET", "/businesses", required_query=("type",)),
    Route("GET", "/businesses/{id}"),
    Route("PUT", "/businesses/{id}"),
)


def model_table(shared: Shared, scope: Construct, construct_id: str, table: schema.TableSchema) -> DataTable:
    """A DataTable with `table`'s keys, GSIs (with their projections) and stream."""

    def key(name: str | None) -> dynamodb.Attribute | None:
        return dynamodb.Attribute(name=name, type=dynamodb.AttributeType.STRING) if name else None

    indexes = [
        dynamodb.GlobalSecondaryIndexPropsV2(
            index_name=index.name,
            partition_key=key(index.partition_key),
            sort_key=key(index.sort_key),
            projection_type=dynamodb.ProjectionType.ALL
            if index.include is None
            else dynamodb.ProjectionType.INCLUDE,
            non_key_attributes=list(index.include) if index.include else None,
        )
        for index in table.indexes
    ]
    return shared.data_table(
        scope,
        construct_id,
        partition_key=key(table.partition_key),
        sort_key=key(table.sort_key),
        global_secondary_indexes=indexes or None,
        dynamo_stream=dynamodb.StreamViewType.NEW_AND_OLD_IMAGES if table.stream else None,
    )


def model_function(
    shared: Shared,
    scope: Construct,
    model: str,
    environment: Mapping[str, str],
    routes: Sequence[Route],
    uses_zorder: bool = False,
) -> ServiceFunction:
    """The API function of one model, on `routes`, able to sign page tokens (``uses_zorder``: with the
    zorder layer, for a search over the Z-index engine)."""
    function = ServiceFunction(
        scope,
        "Function",
        layers=shared.layers,
        service=f"models-{model}",
        handler=f"tatami_functions.{model}.handler.handler",
        packages=[model],
        uses_zorder=uses_zorder,
        environment=environment,
        description=f"The {model} data model's REST routes",
    )
    shared.page_tokens.grant(function)
    shared.api.add_routes(function, routes)
    return function


def output(scope: Construct, key: str, table: DataTable) -> None:
    CfnOutput(Stack.of(scope), key, value=table.table_name)


class ForumModel(Construct):
    """Seed 001: Forum (Name), Thread (ForumName + Subject), Reply (Id + ReplyDateTime); read-only API."""

    def __init__(self, scope: Construct, construct_id: str, *, shared: Shared) -> None:
        super().__init__(scope, construct_id)
        self.forums = model_table(shared, self, "Forums", schema.FORUMS)
        self.threads = model_table(shared, self, "Threads", schema.THREADS)
        self.replies = model_table(shared, self, "Replies", schema.REPLIES)
        environment = ForumTables.environment(
            forums=self.forums.table_name, threads=self.threads.table_name, replies=self.replies.table_name
        )
        self.function = model_function(
            shared,
            self,
            "forum",
            environment,
            FORUM_ROUTES,
        )
        # The forum API only reads: the forum list is the one Scan; a thread's replies one Query.
        grant_table(self.function, self.forums, "Scan", "GetItem")
        grant_table(self.function, self.threads, "Query", "GetItem")
        grant_table(self.function, self.replies, "Query")
        output(self, stack_outputs.OUTPUT_FORUMS_TABLE, self.forums)
        output(self, stack_outputs.OUTPUT_THREADS_TABLE, self.threads)
        output(self, stack_outputs.OUTPUT_REPLIES_TABLE, self.replies)


class OrdersModel(Construct):
    """Seed 002: Orders with CustomerOrders, CustomerStatusOrders and the write-sharded StatusOrders GSI,
    plus the Customers summary table the order transaction updates.

    `status_shards` is N of `Status#n`; readers query 1..N, so it may grow but never shrink.
    """

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        shared: Shared,
        status_shards: int = order_keys.DEFAULT_SHARDS,
    ) -> None:
        super().__init__(scope, construct_id)
        most = order_keys.MAX_SHARDS
        if not 1 <= status_shards <= most:
            raise ValueError(
                f"status_shards {status_shards} must be within 1..{most} (one parallel Query each)"
            )
        self.orders = model_table(shared, self, "Orders", schema.ORDERS)
        self.customers = model_table(shared, self, "Customers", schema.CUSTOMERS)
        environment = OrdersTables.environment(
            orders=self.orders.table_name, customers=self.customers.table_name, shards=status_shards
        )
        self.function = model_function(shared, self, "orders", environment, ORDERS_ROUTES, uses_zorder=True)
        # GET /orders/search: date x total x status through the engine (tatami_functions.orders.search)
        self.index = ZOrderIndex(
            self, "ZIndex", shared=shared, table=self.orders, declaration=ORDERS, service="models-orders"
        )
        self.index.grant_search(self.function)
        # The order's Put and the summary's Update (one transaction), the status change's Update, reads
        # by key and one Query per index; never a delete.
        grant_table(self.function, self.orders, "GetItem", "PutItem", "UpdateItem")
        indexes = [schema.CUSTOMER_ORDERS, schema.CUSTOMER_STATUS_ORDERS, schema.STATUS_ORDERS]
        grant_indexes(self.function, self.orders, [index.name for index in indexes], "Query")
        grant_table(self.function, self.customers, "GetItem", "UpdateItem")
        output(self, stack_outputs.OUTPUT_ORDERS_TABLE, self.orders)
        output(self, stack_outputs.OUTPUT_CUSTOMERS_TABLE, self.customers)
        CfnOutput(Stack.of(self), stack_outputs.OUTPUT_ORDERS_ZINDEX, value=self.index.declaration.to_json())


class BusinessesModel(Construct):
    """Seed 002: Business with the sparse BusinessLocation GSI (BusinessType + `Country:State:City`)."""

    def __init__(self, scope: Construct, construct_id: str, *, shared: Shared) -> None:
        super().__init__(scope, construct_id)
        self.businesses = model_table(shared, self, "Businesses", schema.BUSINESSES)
        self.function = model_function(
            shared,
            self,
            "businesses",
            BusinessesSettings.environment(table=self.businesses.table_name),
            BUSINESSES_ROUTES,
        )
        grant_table(self.function, self.businesses, "GetItem", "PutItem")
        grant_indexes(self.function, self.businesses, [schema.BUSINESS_LOCATION.name], "Query")
        output(self, stack_outputs.OUTPUT_BUSINESSES_TABLE, self.businesses)
