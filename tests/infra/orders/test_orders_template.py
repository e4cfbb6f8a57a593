"""The orders in the synthesized template: the seed's GSIs, the function's tables and shard count, and
shard counts a read can query."""

from __future__ import annotations

from typing import cast

import aws_cdk as cdk
import pytest

from infra.constructs.shared import Shared
from infra.services.orders import OrdersService
from tatami_functions import stack_outputs
from tatami_functions.orders import keys as order_keys
from tatami_functions.orders.settings import OrdersTables
from tests.support.synthesis import Synthesized


def test_orders_gsis_are_the_seeds_designs(synthesized: Synthesized) -> None:
    indexes = {
        i["IndexName"]: i
        for i in synthesized.table(stack_outputs.OUTPUT_ORDERS_TABLE)["GlobalSecondaryIndexes"]
    }
    keys = {name: [k["AttributeName"] for k in index["KeySchema"]] for name, index in indexes.items()}
    assert keys == {
        "CustomerOrders": ["CustomerId", "OrderDate"],
        "CustomerStatusOrders": ["CustomerId", "StatusDate"],  # Status#OrderDate
        "StatusOrders": ["StatusShard", "OrderDate"],  # Status#n, n in 1..N
        "orders-z": ["zbucket", "zaddr"],  # GET /orders/search: date x total x status (the engine)
    }
    # Seed 002: the index projects OrderId, OrderDate, Status: two are its keys, so INCLUDE Status.
    assert indexes["CustomerOrders"]["Projection"] == {
        "ProjectionType": "INCLUDE",
        "NonKeyAttributes": ["Status"],
    }


def test_each_function_gets_its_tables_and_the_shard_count(synthesized: Synthesized) -> None:
    _, orders = synthesized.function("tatami_functions.orders.handler.handler")
    variables = orders["Environment"]["Variables"]
    name = OrdersTables.name_of
    assert variables[name("shards")] == str(order_keys.DEFAULT_SHARDS)
    assert variables[name("orders")] == {"Ref": synthesized.logical_id("OrdersTableName")}
    assert variables[name("customers")]["Ref"] == synthesized.logical_id("CustomersTableName")


def test_status_shards_must_stay_within_what_a_read_can_query() -> None:
    stack = cdk.Stack(cdk.App(), "S")
    with pytest.raises(ValueError, match=r"status_shards 0 must be within 1\.\.32"):
        OrdersService(stack, "Orders", shared=cast(Shared, None), status_shards=0)
