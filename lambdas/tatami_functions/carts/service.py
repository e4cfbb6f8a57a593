"""What the cart routes ask: the cart as the seed's document, one value, whole items, and the two
"who" questions the overloaded GSI answers (who has an item in the cart, who ships to a prefecture)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from tatami_functions.carts.exceptions import CartNotFoundError
from tatami_functions.carts.repository import repository
from tatami_functions.carts.rows import ITEMS, SHIP_TO_STATE_ROW, assemble, item_holders_row, stored_value
from tatami_functions.carts.schemas import CartItemIn, ItemField, ShipToIn
from tatami_functions.common.paging import ListPage, cursor_from, scope


def cart(user_id: str) -> dict[str, Any]:
    """The user's cart as the seed's JSON document (one Query); CartNotFoundError if there is none."""
    rows = repository().rows(user_id)
    if not rows:
        raise CartNotFoundError(f"user {user_id} has no cart")
    return assemble(user_id, rows)


def cart_items(user_id: str) -> list[dict[str, Any]]:
    """The cart's items alone: `begins_with(sort_key, "cart_items#")`, the address never read."""
    items: list[dict[str, Any]] = assemble(user_id, repository().rows(user_id, f"{ITEMS}#"))["cart_items"]
    return items


def item_value(user_id: str, item_id: str, field: ItemField) -> Any:
    """One value of one item: one GetItem of one small row."""
    return repository().value(user_id, item_id, field)


def put_item(user_id: str, item_id: str, body: CartItemIn) -> dict[str, Any]:
    """Write (or replace) an item, `added_at` now unless given; the item as the document shows it."""
    values = body.model_dump()
    values["added_at"] = stored_value(body.added_at or datetime.now(UTC))
    repository().put_item(user_id, item_id, {ItemField(name): value for name, value in values.items()})
    document = assemble(user_id, {f"{ITEMS}#{name}#{item_id}": value for name, value in values.items()})
    item: dict[str, Any] = document["cart_items"][0]
    return item


def set_value(user_id: str, item_id: str, field: ItemField, value: Any) -> Any:
    """Change one value of an item in the cart (a validated value); the value as stored."""
    stored = stored_value(value)
    repository().set_value(user_id, item_id, field, stored)
    return stored


def delete_item(user_id: str, item_id: str) -> None:
    repository().delete_item(user_id, item_id)


def put_ship_to(user_id: str, address: ShipToIn) -> dict[str, Any]:
    values = address.model_dump()
    repository().put_ship_to(user_id, values)
    return values


def users_with_item(item_id: str, limit: int, token: str | None) -> dict[str, Any]:
    """Users with the item in their cart, newest first: `{"items": [{"user_id", "added_at"}], ...}`."""
    token_scope = scope("carts.by-item", item_id=item_id)
    page = repository().holders(item_holders_row(item_id), None, limit, cursor_from(token, token_scope))
    found = [{"user_id": user["user_id"], "added_at": user["gsi_sk"]} for user in page.items]
    return ListPage(found, page.cursor, page.stats).body(token_scope)


def users_shipping_to(state: str, limit: int, token: str | None) -> dict[str, Any]:
    """Users whose cart ships to the prefecture: `{"items": [{"user_id"}], ...}`."""
    token_scope = scope("carts.by-prefecture", state=state)
    page = repository().holders(SHIP_TO_STATE_ROW, state, limit, cursor_from(token, token_scope))
    found = [{"user_id": user["user_id"]} for user in page.items]
    return ListPage(found, page.cursor, page.stats).body(token_scope)
