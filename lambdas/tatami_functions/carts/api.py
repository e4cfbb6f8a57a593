"""Routes of the carts model (seed 004): the cart document, one value, item writes, the overloaded GSI."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from http import HTTPStatus
from typing import Annotated, Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.exceptions import BadRequestError
from aws_lambda_powertools.event_handler.openapi.params import Body, Path, Query
from pydantic import ValidationError

from tatami_functions.carts.exceptions import CartNotFoundError
from tatami_functions.carts.models import (
    ITEMS,
    CartItemIn,
    FieldValueIn,
    ItemField,
    ItemId,
    ShipToIn,
    assemble,
    field_adapter,
    stored_value,
)
from tatami_functions.carts.repository import (
    SHIP_TO_STATE_PARTITION,
    default_table,
    item_users_partition,
)
from tatami_functions.common.api import NO_CONTENT, answer_errors, create_resolver
from tatami_functions.common.prefectures import Prefecture
from tatami_functions.common.tokens import decode_token, encode_token

app = create_resolver("carts")

UserId = Annotated[str, Path(min_length=1, max_length=128)]
Item = Annotated[ItemId, Path()]
Limit = Annotated[int, Query(ge=1, le=100, description="page size")]
Next = Annotated[str | None, Query(alias="next", max_length=4096, description="token from the previous page")]
TAGS = ["carts"]


answer_errors(
    app,
    {
        CartNotFoundError: (HTTPStatus.NOT_FOUND, "{exc}"),
    },
)


@app.get("/users/<user_id>/cart", summary="A user's cart as the seed's document", tags=TAGS)
def get_cart(user_id: UserId) -> dict[str, Any]:
    rows = default_table().rows(user_id)
    if not rows:
        raise CartNotFoundError(f"user {user_id} has no cart")
    return assemble(user_id, rows)


@app.get("/users/<user_id>/cart/items", summary="A cart's items (begins_with cart_items)", tags=TAGS)
def get_cart_items(user_id: UserId) -> dict[str, Any]:
    return {"items": assemble(user_id, default_table().rows(user_id, f"{ITEMS}#"))["cart_items"]}


@app.get("/users/<user_id>/cart/items/<item_id>/<field>", summary="One value of one cart item", tags=TAGS)
def get_item_value(user_id: UserId, item_id: Item, field: Annotated[ItemField, Path()]) -> dict[str, Any]:
    value = default_table().value(user_id, item_id, field)
    return {"user_id": user_id, "item_id": item_id, "field": field.value, "value": value}


@app.put("/users/<user_id>/cart/items/<item_id>", summary="Put (or replace) a cart item", tags=TAGS)
def put_item(user_id: UserId, item_id: Item, body: Annotated[CartItemIn, Body()]) -> dict[str, Any]:
    values = body.model_dump()
    values["added_at"] = stored_value(body.added_at or datetime.now(UTC))
    default_table().put_item(user_id, item_id, {ItemField(name): value for name, value in values.items()})
    document = assemble(user_id, {f"{ITEMS}#{name}#{item_id}": value for name, value in values.items()})
    item: dict[str, Any] = document["cart_items"][0]
    return item


@app.put("/users/<user_id>/cart/items/<item_id>/<field>", summary="Change one value of an item", tags=TAGS)
def put_item_value(
    user_id: UserId, item_id: Item, field: Annotated[ItemField, Path()], body: Annotated[FieldValueIn, Body()]
) -> dict[str, Any]:
    try:
        value = stored_value(field_adapter(field).validate_python(body.value))
    except ValidationError as exc:
        raise BadRequestError(f"value: {exc.errors()[0]['msg']} (for {field.value})") from None
    default_table().set_value(user_id, item_id, field, value)
    return {"user_id": user_id, "item_id": item_id, "field": field.value, "value": value}


@app.delete(
    "/users/<user_id>/cart/items/<item_id>",
    summary="Take an item out of the cart",
    tags=TAGS,
    responses=NO_CONTENT,
)
def delete_item(user_id: UserId, item_id: Item) -> Response[Any]:
    default_table().delete_item(user_id, item_id)
    return Response(status_code=HTTPStatus.NO_CONTENT)


@app.put("/users/<user_id>/cart/ship-to", summary="Set the cart's shipping address", tags=TAGS)
def put_ship_to(user_id: UserId, body: Annotated[ShipToIn, Body()]) -> dict[str, Any]:
    default_table().put_ship_to(user_id, body.model_dump())
    return {"user_id": user_id, "ship_to": body.model_dump()}


@app.get("/carts/by-item/<item_id>", summary="Users with the item in their cart, newest first", tags=TAGS)
def get_users_with_item(item_id: Item, limit: Limit = 25, next_: Next = None) -> dict[str, Any]:
    scope = json.dumps(["carts.by-item", item_id], ensure_ascii=False)
    users, last = default_table().users(item_users_partition(item_id), None, _cursor(next_, scope), limit)
    found = [{"user_id": user["user_id"], "added_at": user["gsi_sk"]} for user in users]
    return {"users": found, "next": encode_token(last, scope) if last else None}


@app.get("/carts/by-prefecture/<state>", summary="Users shipping to the prefecture", tags=TAGS)
def get_users_shipping_to(
    state: Annotated[Prefecture, Path()], limit: Limit = 25, next_: Next = None
) -> dict[str, Any]:
    scope = json.dumps(["carts.by-prefecture", state], ensure_ascii=False)
    users, last = default_table().users(SHIP_TO_STATE_PARTITION, state, _cursor(next_, scope), limit)
    found = [{"user_id": user["user_id"]} for user in users]
    return {"users": found, "next": encode_token(last, scope) if last else None}


def _cursor(token: str | None, scope: str) -> Any:
    return decode_token(token, scope) if token else None
