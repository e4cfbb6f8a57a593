"""The Orders table (seed 002) and the Customers summary table: writes, reads, the key conditions of
the GSIs (`table`), and the search through the Z-index engine.

Placing an order is one TransactWriteItems: the order (only if its id is new) and the customer's
summary (order count, total spent, last order), so the two never disagree. Reads are GetItem or one
Query on a named index; the sharded status index is read one shard at a time (`sharded` merges them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self

from botocore.exceptions import ClientError

from tatami_functions.common import index_search
from tatami_functions.common.attribute_values import low_level, plain
from tatami_functions.common.index_search import SearchPage
from tatami_functions.common.paging import Item, ListPage, ReadStats, cut, start_key
from tatami_functions.common.repository import CONDITION_FAILED, Repository, range_condition
from tatami_functions.orders import keys
from tatami_functions.orders.exceptions import (
    CustomerNotFoundError,
    OrderExistsError,
    OrderNotFoundError,
    OrdersUnavailableError,
)
from tatami_functions.orders.schemas import CustomerOrdersQuery, Status
from tatami_functions.orders.settings import OrdersTables
from tatami_functions.orders.sharded import ShardPage
from tatami_functions.orders.table import CUSTOMER_ORDERS, CUSTOMER_STATUS_ORDERS, ORDERS, STATUS_ORDERS

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

# What a page's cursor holds on each GSI: the index's keys and the table's.
INDEX_KEYS = {
    index.name: (*index.key_names, *ORDERS.key_names)
    for index in (CUSTOMER_ORDERS, CUSTOMER_STATUS_ORDERS, STATUS_ORDERS)
}


def customer_condition(query: CustomerOrdersQuery) -> tuple[str, str, dict[str, Any]]:
    """(index, KeyConditionExpression, values) answering a customer-orders question with one Query.

    Without a status: CustomerOrders, a range on OrderDate. With one: CustomerStatusOrders, whose
    `Status#OrderDate` sort key turns "PENDING and older than D" into one BETWEEN.

    >>> customer_condition(CustomerOrdersQuery("c1", Status.PENDING))[1]
    'CustomerId = :customer AND begins_with(StatusDate, :prefix)'
    """
    values: dict[str, Any] = {":customer": {"S": query.customer_id}}
    if query.status is None:
        condition, bounds = range_condition("OrderDate", query.low, query.high)
        expression = " AND ".join(filter(None, ["CustomerId = :customer", condition]))
        return CUSTOMER_ORDERS.name, expression, values | bounds
    prefix = f"{query.status.value}{keys.SEPARATOR}"
    if query.low is None and query.high is None:
        values[":prefix"] = {"S": prefix}
        return (
            CUSTOMER_STATUS_ORDERS.name,
            "CustomerId = :customer AND begins_with(StatusDate, :prefix)",
            values,
        )
    # '$' is the character after '#': `STATUS$` sorts after every `STATUS#<date>` and before any
    # other status, so it closes an open upper bound exactly.
    values[":low"] = {"S": prefix + (query.low or "")}
    values[":high"] = {"S": prefix + query.high if query.high else f"{query.status.value}$"}
    return CUSTOMER_STATUS_ORDERS.name, "CustomerId = :customer AND StatusDate BETWEEN :low AND :high", values


def shard_condition(status: Status, shard: int, since: str | None) -> tuple[str, dict[str, Any]]:
    """KeyConditionExpression and values of one shard of StatusOrders.

    >>> shard_condition(Status.ORDERED, 2, None)
    ('StatusShard = :shard', {':shard': {'S': 'ORDERED#2'}})
    """
    condition, bounds = range_condition("OrderDate", since, None)
    values = {":shard": {"S": keys.status_shard(status, shard)}} | bounds
    return " AND ".join(filter(None, ["StatusShard = :shard", condition])), values


class OrdersRepository(Repository["DynamoDBClient"]):
    """Reads and writes orders and customer summaries."""

    noun, unavailable = "orders", OrdersUnavailableError

    def __init__(self, tables: OrdersTables, client: DynamoDBClient | None = None) -> None:
        super().__init__(client)
        self.tables = tables

    @classmethod
    def _from_env(cls) -> Self:
        return cls(OrdersTables.from_env())

    def place(self, order: Mapping[str, Any], shard: int) -> dict[str, Any]:
        """Write the order and update its customer's summary in one transaction.

        `order` holds OrderId, CustomerId, OrderDate, Status and Total; raises OrderExistsError if
        the OrderId is taken (nothing is written then).
        """
        item = low_level({**order, **keys.derived_keys(Status(order["Status"]), order["OrderDate"], shard)})
        try:
            self._call("transact_write_items", action="place an order", TransactItems=self._placement(item))
        except OrdersUnavailableError as exc:
            cause = exc.__cause__
            reasons = cause.response.get("CancellationReasons", []) if isinstance(cause, ClientError) else []
            if reasons and reasons[0].get("Code") == "ConditionalCheckFailed":
                raise OrderExistsError(order["OrderId"]) from cause
            raise
        return plain(item, keys.DERIVED)

    def _placement(self, item: Item) -> list[Any]:
        """The order's Put (only if its id is new) and the summary's Update (created on a first order)."""
        put = {
            "TableName": self.tables.orders,
            "Item": item,
            "ConditionExpression": "attribute_not_exists(OrderId)",
        }
        update = {
            "TableName": self.tables.customers,
            "Key": {"CustomerId": item["CustomerId"]},
            "UpdateExpression": "ADD OrderCount :one, TotalSpent :total "
            "SET LastOrderDate = :date, LastOrderId = :id",
            "ExpressionAttributeValues": {
                ":one": {"N": "1"},
                ":total": item["Total"],
                ":date": item["OrderDate"],
                ":id": item["OrderId"],
            },
        }
        return [{"Put": put}, {"Update": update}]

    def get_order(self, order_id: str) -> dict[str, Any]:
        return plain(self._order_item(order_id), keys.DERIVED)

    def set_status(self, order_id: str, status: Status) -> dict[str, Any]:
        """Change an order's status and, with it, the composite and sharded keys derived from it."""
        current = self._order_item(order_id)
        derived = keys.derived_keys(status, current["OrderDate"]["S"], int(current["Shard"]["N"]))
        response = self._call(
            "update_item",
            errors={CONDITION_FAILED: OrderNotFoundError(order_id)},  # deleted since the read
            TableName=self.tables.orders,
            Key={"OrderId": {"S": order_id}},
            UpdateExpression="SET #status = :status, StatusDate = :sd, StatusShard = :ss",
            # OrderDate and Shard never change, so the keys derived above stay right.
            ConditionExpression="attribute_exists(OrderId) AND OrderDate = :date",
            ExpressionAttributeNames={"#status": "Status"},
            ExpressionAttributeValues={
                ":status": {"S": status.value},
                ":sd": {"S": derived["StatusDate"]},
                ":ss": {"S": derived["StatusShard"]},
                ":date": current["OrderDate"],
            },
            ReturnValues="ALL_NEW",
        )
        return plain(response["Attributes"], keys.DERIVED)

    def get_customer(self, customer_id: str) -> dict[str, Any]:
        response = self._call(
            "get_item", TableName=self.tables.customers, Key={"CustomerId": {"S": customer_id}}
        )
        if "Item" not in response:
            raise CustomerNotFoundError(customer_id)
        return plain(response["Item"])

    def customer_orders(self, query: CustomerOrdersQuery, limit: int, cursor: Item | None) -> ListPage:
        """One Query on CustomerOrders or CustomerStatusOrders (see `customer_condition`)."""
        index, condition, values = customer_condition(query)
        response = self._call(
            "query",
            TableName=self.tables.orders,
            IndexName=index,
            KeyConditionExpression=condition,
            ExpressionAttributeValues=values,
            ScanIndexForward=not query.descending,
            Limit=limit + 1,
            ReturnConsumedCapacity="TOTAL",
            **start_key(cursor),
        )
        items, next_key = cut(response["Items"], response.get("LastEvaluatedKey"), limit, INDEX_KEYS[index])
        return ListPage([plain(item, keys.DERIVED) for item in items], next_key, ReadStats.of(response))

    def status_shard(
        self, status: Status, since: str | None, shard: int, start: Item | None, limit: int
    ) -> ShardPage:
        """One shard of StatusOrders: `Status#shard`, OrderDate >= since, in OrderDate order."""
        condition, values = shard_condition(status, shard, since)
        response = self._call(
            "query",
            TableName=self.tables.orders,
            IndexName=STATUS_ORDERS.name,
            KeyConditionExpression=condition,
            ExpressionAttributeValues=values,
            Limit=limit,
            ReturnConsumedCapacity="TOTAL",
            **start_key(start),
        )
        return ShardPage(response["Items"], response.get("LastEvaluatedKey"), ReadStats.of(response))

    def _order_item(self, order_id: str) -> Item:
        response = self._call(
            "get_item", TableName=self.tables.orders, Key={"OrderId": {"S": order_id}}, ConsistentRead=True
        )
        if "Item" not in response:
            raise OrderNotFoundError(order_id)
        item: Item = response["Item"]
        return item

    def search(
        self, bounds: dict[str, tuple[Any, Any]], limit: int, cursor: Any, with_plan: bool
    ) -> SearchPage:
        """One page of the orders within `bounds` (attribute -> inclusive (low, high)) from `cursor` (the
        previous page's, None for the first) through the Z-index engine (`common.index_search`: its
        searcher reads the declaration from the environment)."""
        with self._translated("search", "search orders"):  # the engine calls DynamoDB with its own client
            return index_search.search_page(index_search.query(bounds), limit, cursor, with_plan)


def repository() -> OrdersRepository:
    """The function's repository, named by its environment (made once per execution environment)."""
    return OrdersRepository.from_environment()
