"""Routes of the carts service (seed 004): the cart document, one value, item writes, the overloaded GSI."""

from __future__ import annotations

from http import HTTPStatus
from typing import Annotated, Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.exceptions import BadRequestError
from aws_lambda_powertools.event_handler.openapi.params import Body, Path
from pydantic import ValidationError

from tatami_functions.carts import service
from tatami_functions.carts.schemas import (
    CartItemIn,
    FieldValueIn,
    ItemField,
    ItemId,
    ShipToIn,
    field_adapter,
)
from tatami_functions.common.api import NO_CONTENT, create_resolver
from tatami_functions.common.paging import DEFAULT_LIMIT, Limit, NextToken
from tatami_functions.common.prefectures import Prefecture

app = create_resolver("carts")

UserId = Annotated[str, Path(min_length=1, max_length=128)]
Item = Annotated[ItemId, Path()]
Field = Annotated[ItemField, Path()]


@app.get("/users/<user_id>/cart", summary="A user's cart as the seed's document")
def get_cart(user_id: UserId) -> dict[str, Any]:
    return service.cart(user_id)


@app.get("/users/<user_id>/cart/items", summary="A cart's items (begins_with cart_items)")
def get_cart_items(user_id: UserId) -> dict[str, Any]:
    return {"items": service.cart_items(user_id)}


@app.get("/users/<user_id>/cart/items/<item_id>/<field>", summary="One value of one cart item")
def get_item_value(user_id: UserId, item_id: Item, field: Field) -> dict[str, Any]:
    value = service.item_value(user_id, item_id, field)
    return {"user_id": user_id, "item_id": item_id, "field": field.value, "value": value}


@app.put("/users/<user_id>/cart/items/<item_id>", summary="Put (or replace) a cart item")
def put_item(user_id: UserId, item_id: Item, body: Annotated[CartItemIn, Body()]) -> dict[str, Any]:
    return service.put_item(user_id, item_id, body)


@app.put("/users/<user_id>/cart/items/<item_id>/<field>", summary="Change one value of an item")
def put_item_value(
    user_id: UserId, item_id: Item, field: Field, body: Annotated[FieldValueIn, Body()]
) -> dict[str, Any]:
    try:
        checked = field_adapter(field).validate_python(body.value)
    except ValidationError as exc:
        raise BadRequestError(f"value: {exc.errors()[0]['msg']} (for {field.value})") from None
    value = service.set_value(user_id, item_id, field, checked)
    return {"user_id": user_id, "item_id": item_id, "field": field.value, "value": value}


@app.delete(
    "/users/<user_id>/cart/items/<item_id>",
    summary="Take an item out of the cart",
    responses=NO_CONTENT,
)
def delete_item(user_id: UserId, item_id: Item) -> Response[Any]:
    service.delete_item(user_id, item_id)
    return Response(status_code=HTTPStatus.NO_CONTENT)


@app.put("/users/<user_id>/cart/ship-to", summary="Set the cart's shipping address")
def put_ship_to(user_id: UserId, body: Annotated[ShipToIn, Body()]) -> dict[str, Any]:
    return {"user_id": user_id, "ship_to": service.put_ship_to(user_id, body)}


@app.get("/carts/by-item/<item_id>", summary="Users with the item in their cart, newest first")
def get_users_with_item(
    item_id: Item, limit: Limit = DEFAULT_LIMIT, next_: NextToken = None
) -> dict[str, Any]:
    return service.users_with_item(item_id, limit, next_)


@app.get("/carts/by-prefecture/<state>", summary="Users shipping to the prefecture")
def get_users_shipping_to(
    state: Annotated[Prefecture, Path()], limit: Limit = DEFAULT_LIMIT, next_: NextToken = None
) -> dict[str, Any]:
    return service.users_shipping_to(state, limit, next_)
