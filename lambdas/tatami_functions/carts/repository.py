"""The carts table: one row per cart value, the overloaded GSI, and `ClientError` translation.

A cart item's seven rows are written and deleted in one transaction (the seed: transactions where
they are needed locally), so a reader never sees half an item.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from tatami_functions.carts.exceptions import CartNotFoundError, CartsUnavailableError
from tatami_functions.carts.models import (
    INDEXED_ITEM_FIELD,
    INDEXED_SHIP_TO_FIELD,
    ITEMS,
    ItemField,
    item_row,
    ship_to_row,
)
from tatami_functions.carts.settings import CartsSettings
from tatami_functions.common.attribute_values import deserialize, serialize
from tatami_functions.common.repository import CONDITION_FAILED, TableRepository

INDEX = "GSI_sort_key_gsi_sk"
Key = dict[str, Any]


def _row(user_id: str, key: str, value: Any, indexed: bool) -> dict[str, Any]:
    row = {"user_id": user_id, "sort_key": key, "value": value, **({"gsi_sk": value} if indexed else {})}
    return {name: serialize(item) for name, item in row.items()}


def _value(item: dict[str, Any]) -> Any:
    value = deserialize(item["value"])
    return int(value) if isinstance(value, Decimal) else value


class CartsTable(TableRepository):
    """The seed's `carts` table and its overloaded GSI (`sort_key`, `gsi_sk`).

    >>> carts = CartsTable("Tatami-Carts", client=boto3.client("dynamodb"))  # doctest: +SKIP
    >>> carts.value("MAX", "靴下ID", ItemField.PRICE)  # doctest: +SKIP
    3300
    """

    noun, unavailable, settings = "carts", CartsUnavailableError, CartsSettings

    def rows(self, user_id: str, prefix: str | None = None) -> dict[str, Any]:
        """`{sort_key: value}` of a user's rows (under `prefix`): one Query, paged to the end."""
        condition, values = "user_id = :user", {":user": {"S": user_id}}
        if prefix:
            condition += " AND begins_with(sort_key, :prefix)"
            values[":prefix"] = {"S": prefix}
        request: dict[str, Any] = {
            "TableName": self.table_name,
            "KeyConditionExpression": condition,
            "ExpressionAttributeValues": values,
            "ReturnConsumedCapacity": "TOTAL",
        }
        rows: dict[str, Any] = {}
        while True:
            response = self._call("query", **request)
            rows |= {item["sort_key"]["S"]: _value(item) for item in response["Items"]}
            if "LastEvaluatedKey" not in response:
                return rows
            request["ExclusiveStartKey"] = response["LastEvaluatedKey"]

    def value(self, user_id: str, item_id: str, field: ItemField) -> Any:
        """One value of one cart item (the seed's `cart_items#price#靴下ID` read)."""
        key = {"user_id": {"S": user_id}, "sort_key": {"S": item_row(field, item_id)}}
        response = self._call("get_item", TableName=self.table_name, Key=key, ReturnConsumedCapacity="TOTAL")
        if "Item" not in response:
            raise CartNotFoundError(f"user {user_id} has no item {item_id} in the cart")
        return _value(response["Item"])

    def put_item(self, user_id: str, item_id: str, values: dict[ItemField, Any]) -> None:
        """Write (or replace) a cart item's rows together."""
        rows = [_row(user_id, item_row(f, item_id), v, f == INDEXED_ITEM_FIELD) for f, v in values.items()]
        self._transact([{"Put": {"TableName": self.table_name, "Item": row}} for row in rows])

    def put_ship_to(self, user_id: str, values: dict[str, Any]) -> None:
        """Write (or replace) the shipping address's rows together."""
        rows = [_row(user_id, ship_to_row(f), v, f == INDEXED_SHIP_TO_FIELD) for f, v in values.items()]
        self._transact([{"Put": {"TableName": self.table_name, "Item": row}} for row in rows])

    def set_value(self, user_id: str, item_id: str, field: ItemField, value: Any) -> None:
        """Change one value of an existing item: one small row, not the whole cart."""
        indexed = field == INDEXED_ITEM_FIELD
        self._call(
            "update_item",
            errors={CONDITION_FAILED: CartNotFoundError(f"user {user_id} has no item {item_id} in the cart")},
            action="update a cart",
            TableName=self.table_name,
            Key={"user_id": {"S": user_id}, "sort_key": {"S": item_row(field, item_id)}},
            UpdateExpression="SET #value = :value" + (", gsi_sk = :value" if indexed else ""),
            ConditionExpression="attribute_exists(user_id)",
            ExpressionAttributeNames={"#value": "value"},
            ExpressionAttributeValues={":value": serialize(value)},
        )

    def delete_item(self, user_id: str, item_id: str) -> None:
        """Delete a cart item's rows together; CartNotFoundError if it is not in the cart."""
        actions: list[dict[str, Any]] = []
        for field in ItemField:
            delete: dict[str, Any] = {"TableName": self.table_name}
            delete["Key"] = {"user_id": {"S": user_id}, "sort_key": {"S": item_row(field, item_id)}}
            if field is ItemField.ITEM_NAME:  # one condition decides for the whole item
                delete["ConditionExpression"] = "attribute_exists(user_id)"
            actions.append({"Delete": delete})
        try:
            self._transact(actions)
        except CartsUnavailableError as exc:
            if "ConditionalCheckFailed" in str(exc.__cause__):
                raise CartNotFoundError(f"user {user_id} has no item {item_id} in the cart") from exc
            raise

    def users(
        self, partition: str, value: str | None, start: Key | None, limit: int
    ) -> tuple[list[dict[str, str]], Key | None]:
        """One page of the overloaded GSI: `sort_key = partition` (and `gsi_sk = value`), newest first."""
        condition, values = "sort_key = :key", {":key": {"S": partition}}
        if value is not None:
            condition += " AND gsi_sk = :value"
            values[":value"] = {"S": value}
        request: dict[str, Any] = {
            "TableName": self.table_name,
            "IndexName": INDEX,
            "KeyConditionExpression": condition,
            "ExpressionAttributeValues": values,
            "ScanIndexForward": False,
            "Limit": limit,
            "ReturnConsumedCapacity": "TOTAL",
        }
        if start:
            request["ExclusiveStartKey"] = start
        response = self._call("query", **request)
        found = [
            {"user_id": item["user_id"]["S"], "gsi_sk": item["gsi_sk"]["S"]} for item in response["Items"]
        ]
        return found, response.get("LastEvaluatedKey")

    def _transact(self, actions: list[dict[str, Any]]) -> None:
        self._call("transact_write_items", TransactItems=actions)


def item_users_partition(item_id: str) -> str:
    """The GSI partition of "users with this item": the item's `added_at` rows.

    >>> item_users_partition("靴下ID")
    'cart_items#added_at#靴下ID'
    """
    return f"{ITEMS}#{INDEXED_ITEM_FIELD}#{item_id}"


SHIP_TO_STATE_PARTITION = ship_to_row(INDEXED_SHIP_TO_FIELD)


def default_table() -> CartsTable:
    """The function's table, named by its environment (created once per execution environment)."""
    return CartsTable.from_environment()
