"""Seed 004's cart as values: the seed's JSON split by path and reassembled, one field validated alone."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from tatami.samples import workshop_data
from tatami_functions.carts.rows import assemble, item_row, ship_to_row
from tatami_functions.carts.schemas import ItemField, ShipToIn, field_adapter

SEED_CART = workshop_data()["carts"]["MAX"]  # the seed's JSON, verbatim


def seed_rows() -> dict[str, object]:
    rows: dict[str, object] = {}
    for item in SEED_CART["cart_items"]:
        for field in ItemField:
            value = item[field.value]
            rows[item_row(field, item["item_id"])] = (
                int(value.replace(",", ""))
                if field.value
                in {
                    "quantity",
                    "price",
                }
                else value
            )
    rows |= {ship_to_row(name): value for name, value in SEED_CART["ship_to"].items()}
    return rows


def test_the_seed_cart_is_split_by_path_and_reassembled_as_the_seed_json() -> None:
    rows = seed_rows()
    assert "cart_items#price#靴下ID" in rows and rows["cart_items#price#靴下ID"] == 3300
    assert len(rows) == 2 * 7 + 6  # one small item per value: 7 per cart item, 6 for ship_to
    document = assemble("MAX", dict(sorted(rows.items())))  # DynamoDB returns them in key order
    expected = [
        {**item, "quantity": int(item["quantity"]), "price": int(item["price"].replace(",", ""))}
        for item in SEED_CART["cart_items"]
    ]
    assert document["cart_items"] == expected  # same fields, same order as the seed's JSON
    assert list(document["ship_to"]) == list(SEED_CART["ship_to"])
    assert document["ship_to"] == SEED_CART["ship_to"]


def test_one_field_is_validated_as_the_whole_item_validates_it() -> None:
    assert field_adapter(ItemField.QUANTITY).validate_python(3) == 3
    with pytest.raises(ValidationError):
        field_adapter(ItemField.QUANTITY).validate_python(0)
    with pytest.raises(ValidationError):
        ShipToIn(**{**SEED_CART["ship_to"], "state": "千葉"})
