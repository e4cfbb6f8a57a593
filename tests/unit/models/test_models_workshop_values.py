"""Seed 004's carts, documents and lockers as values: the seed's JSON, its RCU arithmetic, drill-down keys."""

from __future__ import annotations

import os
from datetime import date

import pytest
from pydantic import ValidationError

from tatami.samples.models_workshop import sample_data
from tatami_functions.carts.rows import assemble, item_row, ship_to_row
from tatami_functions.carts.schemas import ItemField, ShipToIn, field_adapter
from tatami_functions.common.prefectures import PREFECTURES, check_prefecture
from tatami_functions.documents.reports import (
    INLINE_MAX_BYTES,
    MAX_DOCUMENT_BYTES,
    DocumentStatus,
    listed,
    pack,
    query_read_units,
    status_with_created_on,
    unpack,
)
from tatami_functions.documents.schemas import DocumentIn
from tatami_functions.lockers.locations import area_prefix, normalize_location

SEED_CART = sample_data()["carts"]["MAX"]  # the seed's JSON, verbatim


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


def test_the_seed_list_cost_1600_rcu_and_the_gsi_entry_holds_no_body() -> None:
    assert query_read_units(50 * 256 * 1024) == 1600.0  # 50 x 256 KB / 4 KB x 1/2
    assert query_read_units(50 * 80) == 0.5
    assert status_with_created_on("COMPLETED", date(2021, 7, 13)) == "COMPLETED#2021-07-13"
    entry = listed({"report_id": "r", "summary": "s", "status_with_created_on": "PENDING#2021-07-14"})
    assert entry == {"report_id": "r", "status": "PENDING", "created_on": "2021-07-14", "summary": "s"}


def test_bodies_up_to_8_kib_compressed_stay_inline_and_larger_go_to_s3() -> None:
    small = "売上レポート " * 2000  # 36 KB of text, a few hundred bytes compressed
    assert pack(small).inline is not None and unpack(pack(small).inline or b"") == small
    noise = os.urandom(INLINE_MAX_BYTES).hex()
    assert pack(noise).inline is None
    assert pack("x", inline_max=0).inline is None


def test_a_document_over_1_mib_is_refused_naming_document() -> None:
    with pytest.raises(ValidationError) as caught:
        DocumentIn(status=DocumentStatus.PENDING, summary="s", document="a" * (MAX_DOCUMENT_BYTES + 1))
    assert caught.value.errors()[0]["loc"] == ("document",)


def test_locations_drill_down_on_level_boundaries() -> None:
    assert normalize_location("千代田区/紀尾井町") == "千代田区#紀尾井町"
    assert area_prefix("千代田区#紀尾井町") == "千代田区#紀尾井町#"
    assert area_prefix(None) is None
    for bad in ("千代田区##紀尾井町", "a#b#c#d#e", "#"):
        with pytest.raises(ValueError):
            normalize_location(bad)


def test_prefectures_are_the_47() -> None:
    assert len(set(PREFECTURES)) == 47 and "東京都" in PREFECTURES and "北海道" in PREFECTURES
    with pytest.raises(ValueError, match="47 prefectures"):
        check_prefecture("東京")
