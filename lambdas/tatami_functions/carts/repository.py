"""The carts table: one row per cart value, the overloaded GSI; every SDK error leaves as the carts' own.

A cart item's seven rows are written and deleted in one transaction (the seed: transactions where
they are needed locally), so a reader never sees half an item.
"""

from __future__ import annotations

from typing import Any

from tatami_functions.carts.exceptions import CartNotFoundError, CartsUnavailableError
from tatami_functions.carts.rows import INDEXED_ITEM_FIELD, INDEXED_SHIP_TO_FIELD, item_row, ship_to_row
from tatami_functions.carts.schemas import ItemField
from tatami_functions.carts.settings import CartsSettings
from tatami_functions.carts.table import BY_ROW, CARTS
from tatami_functions.common.attribute_values import deserialize, json_value, serialize
from tatami_functions.common.paging import Item, ListPage, ReadStats, start_key
from tatami_functions.common.repository import CONDITION_FAILED, TableRepository

USER, ROW = CARTS.key_names
INDEXED_VALUE = BY_ROW.key_names[1]


def _row(user_id: str, key: str, value: Any, indexed: bool) -> Item:
    row = {USER: user_id, ROW: key, "value": value, **({INDEXED_VALUE: value} if indexed else {})}
    return {name: serialize(item) for name, item in row.items()}


def _value(item: Item) -> Any:
    return json_value(deserialize(item["value"]))


def _key(user_id: str, row: str) -> Item:
    return {USER: {"S": user_id}, ROW: {"S": row}}


class CartsRepository(TableRepository):
    """The seed's `carts` table and its overloaded GSI (`sort_key`, `gsi_sk`).

    For example (not run as a doctest)::

        carts = CartsRepository("Tatami-Carts", client=boto3.client("dynamodb"))
        carts.value("MAX", "靴下ID", ItemField.PRICE)
        # -> 3300
    """

    noun, unavailable, settings = "carts", CartsUnavailableError, CartsSettings

    def rows(self, user_id: str, prefix: str | None = None) -> dict[str, Any]:
        """`{sort_key: value}` of a user's rows (under `prefix`): one Query, paged to the end."""
        condition, values = f"{USER} = :user", {":user": {"S": user_id}}
        if prefix:
            condition += f" AND begins_with({ROW}, :prefix)"
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
            rows |= {item[ROW]["S"]: _value(item) for item in response["Items"]}
            if "LastEvaluatedKey" not in response:
                return rows
            request["ExclusiveStartKey"] = response["LastEvaluatedKey"]

    def value(self, user_id: str, item_id: str, field: ItemField) -> Any:
        """One value of one cart item (the seed's `cart_items#price#靴下ID` read)."""
        key = _key(user_id, item_row(field, item_id))
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
            Key=_key(user_id, item_row(field, item_id)),
            UpdateExpression="SET #value = :value" + (f", {INDEXED_VALUE} = :value" if indexed else ""),
            ConditionExpression=f"attribute_exists({USER})",
            ExpressionAttributeNames={"#value": "value"},
            ExpressionAttributeValues={":value": serialize(value)},
        )

    def delete_item(self, user_id: str, item_id: str) -> None:
        """Delete a cart item's rows together; CartNotFoundError if it is not in the cart."""
        actions: list[dict[str, Any]] = []
        for field in ItemField:
            delete: dict[str, Any] = {
                "TableName": self.table_name,
                "Key": _key(user_id, item_row(field, item_id)),
            }
            if field is ItemField.ITEM_NAME:  # one condition decides for the whole item
                delete["ConditionExpression"] = f"attribute_exists({USER})"
            actions.append({"Delete": delete})
        try:
            self._transact(actions)
        except CartsUnavailableError as exc:
            # A cancelled transaction names each action's reason; only a failed condition means
            # "not in the cart" (a conflict or a throttle stays a 503).
            if "ConditionalCheckFailed" in str(exc.__cause__):
                raise CartNotFoundError(f"user {user_id} has no item {item_id} in the cart") from exc
            raise

    def holders(self, row: str, value: str | None, limit: int, cursor: Item | None) -> ListPage:
        """One page of the overloaded GSI: the users with the row `row` (valued `value`), newest first;
        items are `{"user_id", "gsi_sk"}`."""
        condition, values = f"{ROW} = :row", {":row": {"S": row}}
        if value is not None:
            condition += f" AND {INDEXED_VALUE} = :value"
            values[":value"] = {"S": value}
        response = self._call(
            "query",
            TableName=self.table_name,
            IndexName=BY_ROW.name,
            KeyConditionExpression=condition,
            ExpressionAttributeValues=values,
            ScanIndexForward=False,
            Limit=limit,
            ReturnConsumedCapacity="TOTAL",
            **start_key(cursor),
        )
        found = [
            {USER: item[USER]["S"], INDEXED_VALUE: item[INDEXED_VALUE]["S"]} for item in response["Items"]
        ]
        return ListPage(found, response.get("LastEvaluatedKey"), ReadStats.of(response))

    def _transact(self, actions: list[dict[str, Any]]) -> None:
        self._call("transact_write_items", TransactItems=actions)


def repository() -> CartsRepository:
    """The function's repository, named by its environment (created once per execution environment)."""
    return CartsRepository.from_environment()
