"""Carts on DynamoDB Local: one Query per cart, one GetItem per value, one GSI Query per "who" question."""

from __future__ import annotations

import pytest

from tatami.samples import workshop_data
from tatami_functions.carts.exceptions import CartNotFoundError
from tatami_functions.carts.repository import CartsRepository
from tatami_functions.carts.rows import ITEMS, SHIP_TO_STATE_ROW, assemble, item_holders_row
from tatami_functions.carts.schemas import ItemField
from tatami_functions.carts.table import BY_ROW
from tests.support import models_workshop
from tests.support.models_workshop import Workshop

workshop = models_workshop.workshop  # the session fixture: model tables on DynamoDB Local, seed loaded
SEED = workshop_data()["carts"]["MAX"]


@pytest.fixture
def carts(workshop: Workshop) -> CartsRepository:
    workshop.recorder.clear()
    return CartsRepository(workshop.table("CartsTableName"), client=workshop.client)


def test_maxs_cart_is_one_query_and_reassembles_the_seed_json(
    carts: CartsRepository, workshop: Workshop
) -> None:
    cart = assemble("MAX", carts.rows("MAX"))
    assert [item["item_id"] for item in cart["cart_items"]] == ["靴下ID", "お茶碗ID"]
    assert cart["cart_items"][0] | {"quantity": "2", "price": "3,300"} == SEED["cart_items"][0]
    assert cart["ship_to"] == SEED["ship_to"]
    (call,) = workshop.recorder.calls
    assert (call.operation, call.index) == ("Query", None) and call.scanned == call.count == 2 * 7 + 6


def test_the_seeds_two_queries(carts: CartsRepository, workshop: Workshop) -> None:
    assert carts.value("MAX", "靴下ID", ItemField.PRICE) == 3300  # sort_key = cart_items#price#靴下ID
    items = carts.rows("MAX", f"{ITEMS}#")  # begins_with(sort_key, "cart_items")
    assert len(items) == 14 and all(key.startswith("cart_items#") for key in items)
    assert workshop.recorder.operations() == [("GetItem", None), ("Query", None)]
    assert workshop.recorder.calls[0].consumed is None or workshop.recorder.calls[0].consumed <= 0.5
    assert workshop.recorder.calls[1].scanned == 14  # the ship_to rows were never read


def test_the_overloaded_gsi_answers_who_has_an_item_and_who_ships_where(
    carts: CartsRepository, workshop: Workshop
) -> None:
    socks = carts.holders(item_holders_row("靴下ID"), None, 25, None).items
    assert socks == [
        {"user_id": "SUE", "gsi_sk": "2021-08-02T09:00:00.000Z"},  # newest first
        {"user_id": "MAX", "gsi_sk": "2021-08-01T00:00:00.000Z"},
    ]
    chiba = carts.holders(SHIP_TO_STATE_ROW, "千葉県", 25, None).items
    assert {user["user_id"] for user in chiba} == {"MAX", "KEN"}
    assert workshop.recorder.operations() == [("Query", BY_ROW.name), ("Query", BY_ROW.name)]
    assert [call.scanned for call in workshop.recorder.calls] == [2, 2]  # of 60 rows in the table


def test_one_value_changes_alone_and_an_item_comes_and_goes_whole(
    carts: CartsRepository, workshop: Workshop
) -> None:
    values = dict(zip(ItemField, ["箸", "SKU", 1, 880, "食器", "箸", "t"], strict=True))
    carts.put_item("CART-TEST", "箸ID", values)
    carts.set_value("CART-TEST", "箸ID", ItemField.QUANTITY, 4)
    assert carts.value("CART-TEST", "箸ID", ItemField.QUANTITY) == 4
    assert workshop.recorder.operations()[:2] == [("TransactWriteItems", None), ("UpdateItem", None)]
    carts.delete_item("CART-TEST", "箸ID")
    assert carts.rows("CART-TEST") == {}
    with pytest.raises(CartNotFoundError):
        carts.delete_item("CART-TEST", "箸ID")
    with pytest.raises(CartNotFoundError):
        carts.set_value("CART-TEST", "箸ID", ItemField.PRICE, 1)
    with pytest.raises(CartNotFoundError):
        carts.value("CART-TEST", "箸ID", ItemField.PRICE)
