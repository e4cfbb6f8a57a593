"""The attribute shapes analytics declares match the items the services really write."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from tatami_functions.common.attribute_values import low_level
from tatami_functions.devices.repository import to_item
from tatami_functions.devices.schemas import DeviceLog, Level
from tatami_functions.ip_lookup.addresses import parse_address, prefix_of
from tatami_functions.ip_lookup.keys import Piece
from tatami_functions.olap.tables import DECLARED, exported_table, table_key
from tatami_functions.orders.keys import derived_keys
from tatami_functions.orders.schemas import Status


def _declared(item: dict[str, Any], shape: Any) -> None:
    for name, value in item.items():
        if name not in shape:
            continue  # exported, not visible to SQL
        ((kind, inner),) = value.items()
        if isinstance(shape[name], str):
            assert kind == shape[name], f"{name}: the service writes {kind}, analytics reads {shape[name]}"
        else:
            assert kind == "M"
            _declared(inner, shape[name])


def test_device_logs_as_the_devices_model_writes_them() -> None:
    log = DeviceLog("d1", Level.WARNING, "2024-05-01T00:00:00.000Z", "hot", 1_900_000_000, 3, "op", "boss")
    item = to_item(log)
    _declared(item, DECLARED["device_logs"].attributes)
    assert set(DECLARED["device_logs"].attributes) == set(item)


def test_orders_as_the_orders_model_writes_them() -> None:
    order = {
        "OrderId": "o1",
        "CustomerId": "c1",
        "OrderDate": "2024-05-01T00:00:00.000Z",
        "Status": "PENDING",
    }
    item = low_level(
        {**order, "Total": Decimal("1.50"), **derived_keys(Status.PENDING, order["OrderDate"], 3)}
    )
    _declared(item, DECLARED["orders"].attributes)


def test_ip_ranges_as_the_loader_writes_them() -> None:
    address = parse_address("8.8.8.0")
    piece = Piece(
        prefix_of(address, 8), address.value, address.value + 255, "8.8.8.0", "8.8.8.255", {"country": "US"}
    )
    _declared(piece.item(3), DECLARED["ip_ranges"].attributes)
    gap = Piece(prefix_of(address, 8), address.value, address.value, "8.8.8.0", "8.8.8.0", None, "gap")
    _declared(gap.item(3), DECLARED["ip_ranges"].attributes)


def test_glue_and_duckdb_types_follow_the_dynamodb_json() -> None:
    orders = DECLARED["orders"]
    assert orders.glue_type().startswith("struct<orderid:struct<s:string>,customerid:struct<s:string>")
    assert "data:struct<m:struct<country:struct<s:string>" in DECLARED["ip_ranges"].glue_type()
    assert 'STRUCT("BOOL" BOOLEAN)' in DECLARED["ip_ranges"].duckdb_type()


def test_a_table_without_declared_columns_shows_its_key_attributes() -> None:
    with pytest.raises(KeyError, match="declares no columns"):
        exported_table("carts")
    keys = [{"AttributeName": "user_id", "AttributeType": "S"}, {"AttributeName": "n", "AttributeType": "N"}]
    carts = exported_table("carts", keys)
    assert carts.attributes == {"user_id": "S", "n": "N"} and carts.raw == "raw_carts"
    assert exported_table("orders", keys) is DECLARED["orders"]  # a declaration wins over the keys


@pytest.mark.parametrize(
    ("output", "key"),
    [
        ("CounterShardsTableName", "counter_shards"),
        ("IpRangesTableName", "ip_ranges"),
        ("OrdersTableName", "orders"),
    ],
)
def test_a_table_key_is_its_output_name_in_snake_case(output: str, key: str) -> None:
    assert table_key(output) == key
