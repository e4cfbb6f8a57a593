"""The carts routes over real HTTP on the app's local cloud, with the sample loaded as `make run` loads it."""

from __future__ import annotations

from tatami.samples import workshop_data
from tests.support.models_workshop import call, get

SEED_CART = workshop_data()["carts"]["MAX"]


def test_get_cart_is_the_seeds_json(workshop_api: str) -> None:
    cart = get(workshop_api, "/users/MAX/cart").json()
    as_seed = [
        {**item, "quantity": str(item["quantity"]), "price": f"{item['price']:,}"}
        for item in cart["cart_items"]
    ]
    assert as_seed == SEED_CART["cart_items"] and cart["ship_to"] == SEED_CART["ship_to"]
    assert get(workshop_api, "/users/NOBODY/cart").status_code == 404


def test_get_cart_items_and_one_value(workshop_api: str) -> None:
    assert [item["item_name"] for item in get(workshop_api, "/users/MAX/cart/items").json()["items"]] == [
        "靴下",
        "お茶碗",
    ]
    price = get(workshop_api, "/users/MAX/cart/items/靴下ID/price").json()
    assert price == {"user_id": "MAX", "item_id": "靴下ID", "field": "price", "value": 3300}
    assert get(workshop_api, "/users/MAX/cart/items/箸ID/price").status_code == 404


def test_get_users_by_item_and_by_prefecture(workshop_api: str) -> None:
    socks = get(workshop_api, "/carts/by-item/靴下ID").json()
    assert [user["user_id"] for user in socks["items"]] == ["SUE", "MAX"] and socks["next"] is None
    chiba = get(workshop_api, "/carts/by-prefecture/千葉県").json()
    assert sorted(user["user_id"] for user in chiba["items"]) == ["KEN", "MAX"]
    page = get(workshop_api, "/carts/by-prefecture/千葉県", limit=1).json()
    assert get(workshop_api, "/carts/by-prefecture/東京都", next=page["next"]).status_code == 400


def test_put_change_and_delete_a_cart_item_and_the_address(workshop_api: str) -> None:
    item = {
        "item_name": "箸",
        "sku": "箸SKU",
        "quantity": 1,
        "price": 880,
        "category": "食器",
        "sub_category": "箸",
    }
    put = call(
        workshop_api, "PUT", "/users/HTTP-USER/cart/items/箸ID", {**item, "added_at": "2021-08-05T00:00:00Z"}
    )
    assert put.status_code == 200 and put.json()["added_at"] == "2021-08-05T00:00:00.000Z"
    assert (
        call(workshop_api, "PUT", "/users/HTTP-USER/cart/items/箸ID/quantity", {"value": 3}).json()["value"]
        == 3
    )
    address = {**SEED_CART["ship_to"], "state": "北海道"}
    assert call(workshop_api, "PUT", "/users/HTTP-USER/cart/ship-to", address).status_code == 200
    cart = get(workshop_api, "/users/HTTP-USER/cart").json()
    assert cart["cart_items"][0]["quantity"] == 3 and cart["ship_to"]["state"] == "北海道"
    assert "HTTP-USER" in [u["user_id"] for u in get(workshop_api, "/carts/by-item/箸ID").json()["items"]]
    assert call(workshop_api, "DELETE", "/users/HTTP-USER/cart/items/箸ID").status_code == 204
    assert call(workshop_api, "DELETE", "/users/HTTP-USER/cart/items/箸ID").status_code == 404
    assert (
        call(workshop_api, "PUT", "/users/HTTP-USER/cart/items/箸ID/quantity", {"value": 3}).status_code
        == 404
    )
