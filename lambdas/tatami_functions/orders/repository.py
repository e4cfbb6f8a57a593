"""The Orders table (seed 002) and the Customers summary table: writes, reads, ClientError translation.

Placing an order is one TransactWriteItems: the order (only if its id is new) and the customer's
summary (order count, total spent, last order), so the two never disagree. Reads are GetItem or one
Query on a named index; the sharded status index is read by `models.orders.sharded`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self

from botocore.exceptions import ClientError

from tatami_functions.common.attribute_values import low_level, plain
from tatami_functions.common.paging import Item, ListPage, ReadStats, cut, start_key
from tatami_functions.common.repository import CONDITION_FAILED, Repository
from tatami_functions.orders import keys
from tatami_functions.orders.exceptions import (
    CustomerNotFoundError,
    OrderExistsError,
    OrderNotFoundError,
    OrdersUnavailableError,
)
from tatami_functions.orders.models import CustomerOrdersQuery, Status
from tatami_functions.orders.settings import OrdersTables
from tatami_functions.orders.sharded import ShardPage

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient


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
        """One Query on CustomerOrders or CustomerStatusOrders (see `keys.customer_condition`)."""
        index, condition, values = keys.customer_condition(query)
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
        items, next_key = cut(
            response["Items"], response.get("LastEvaluatedKey"), limit, keys.INDEX_KEYS[index]
        )
        return ListPage([plain(item, keys.DERIVED) for item in items], next_key, ReadStats.of(response))

    def status_shard(
        self, status: Status, since: str | None, shard: int, start: Item | None, limit: int
    ) -> ShardPage:
        """One shard of StatusOrders: `Status#shard`, OrderDate >= since, in OrderDate order."""
        condition, values = keys.shard_condition(status, shard, since)
        response = self._call(
            "query",
            TableName=self.tables.orders,
            IndexName=keys.STATUS_ORDERS,
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
