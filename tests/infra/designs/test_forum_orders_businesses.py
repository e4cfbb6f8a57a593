"""The seed 001/002 models in the synthesized template: keys and indexes, no stream nobody reads, the
routes each function serves, and grants no wider than each model needs."""

from __future__ import annotations

from typing import Any, cast

import pytest

from tatami.local.gateway.routes import read_routes
from tatami_functions import stack_outputs
from tatami_functions.businesses.table import BUSINESSES
from tatami_functions.common.tokens import PageTokenSettings
from tatami_functions.forum.table import FORUMS, REPLIES, THREADS
from tatami_functions.orders.table import CUSTOMERS, ORDERS, ORDERS_ZINDEX
from tests.support.synthesis import Synthesized

TABLES = {
    stack_outputs.OUTPUT_FORUMS_TABLE: FORUMS,
    stack_outputs.OUTPUT_THREADS_TABLE: THREADS,
    stack_outputs.OUTPUT_REPLIES_TABLE: REPLIES,
    stack_outputs.OUTPUT_ORDERS_TABLE: ORDERS,
    stack_outputs.OUTPUT_CUSTOMERS_TABLE: CUSTOMERS,
    stack_outputs.OUTPUT_BUSINESSES_TABLE: BUSINESSES,
}


def _actions(synthesized: Synthesized, function_id: str) -> set[str]:
    role = _function_with_id(synthesized, function_id)["Role"]["Fn::GetAtt"][0]
    return {
        action
        for policy in synthesized.resources("AWS::IAM::Policy").values()
        if {"Ref": role} in policy["Properties"]["Roles"]
        for statement in policy["Properties"]["PolicyDocument"]["Statement"]
        for action in (
            statement["Action"] if isinstance(statement["Action"], list) else [statement["Action"]]
        )
    }


def _function_with_id(synthesized: Synthesized, function_id: str) -> dict[str, Any]:
    return cast(dict[str, Any], synthesized.template["Resources"][function_id]["Properties"])


@pytest.mark.parametrize("output", list(TABLES))
def test_each_table_has_the_schemas_keys_and_indexes(synthesized: Synthesized, output: str) -> None:
    props, expected = synthesized.table(output), TABLES[output].create_table_request("x")
    # The Orders table also carries the Z-order index of GET /orders/search (the engine's own GSI).
    engine = {i.name for i in ORDERS_ZINDEX.indexes} if output == stack_outputs.OUTPUT_ORDERS_TABLE else set()
    engine_keys = set(ORDERS_ZINDEX.written) if engine else set()
    assert props["KeySchema"] == expected["KeySchema"]
    assert (
        sorted(
            (d for d in props["AttributeDefinitions"] if d["AttributeName"] not in engine_keys),
            key=lambda d: d["AttributeName"],
        )
        == expected["AttributeDefinitions"]
    )
    indexes = props.get("GlobalSecondaryIndexes", [])
    assert [i for i in indexes if i["IndexName"] not in engine] == expected.get("GlobalSecondaryIndexes", [])
    assert {i["IndexName"] for i in indexes} >= engine
    assert props["BillingMode"] == "PAY_PER_REQUEST"
    (replica,) = props["Replicas"]
    assert replica["PointInTimeRecoverySpecification"] == {"PointInTimeRecoveryEnabled": True}
    assert replica["DeletionProtectionEnabled"] is True
    assert "TimeToLiveSpecification" not in props  # nothing in seeds 001/002 expires


def test_no_model_streams_changes_nobody_reads(synthesized: Synthesized) -> None:
    """The audit found the Orders stream unconsumed: streams exist only where a function reads them
    (the Orders table's feeds the maintainer of its Z-order index, GET /orders/search)."""
    orders_id = synthesized.template["Outputs"][stack_outputs.OUTPUT_ORDERS_TABLE]["Value"]["Ref"]
    readers = [
        m["Properties"]["EventSourceArn"]
        for m in synthesized.resources("AWS::Lambda::EventSourceMapping").values()
        if m["Properties"]["EventSourceArn"] == {"Fn::GetAtt": [orders_id, "StreamArn"]}
    ]
    for output in TABLES:
        stream = synthesized.table(output).get("StreamSpecification")
        if output == stack_outputs.OUTPUT_ORDERS_TABLE:
            assert stream == {"StreamViewType": "NEW_AND_OLD_IMAGES"} and len(readers) == 1
        else:
            assert stream is None, output


def test_routes_are_served_by_their_models_function(synthesized: Synthesized) -> None:
    stack = synthesized.stack()
    routes = {(r.method, r.resource_path): r for r in read_routes(stack)}
    expected = {
        "tatami_functions.forum.handler.handler": [
            ("GET", "/forums"),
            ("GET", "/forums/{forum}"),
            ("GET", "/forums/{forum}/threads"),
            ("GET", "/forums/{forum}/threads/{subject}"),
            ("GET", "/forums/{forum}/threads/{subject}/replies"),
        ],
        "tatami_functions.orders.handler.handler": [
            ("POST", "/orders"),
            ("GET", "/orders"),
            ("GET", "/orders/{id}"),
            ("PATCH", "/orders/{id}"),
            ("GET", "/customers/{id}"),
            ("GET", "/customers/{id}/orders"),
        ],
        "tatami_functions.businesses.handler.handler": [
            ("GET", "/businesses"),
            ("GET", "/businesses/{id}"),
            ("PUT", "/businesses/{id}"),
        ],
    }
    for handler, methods in expected.items():
        function_id, props = synthesized.function(handler)
        assert props["Environment"]["Variables"][PageTokenSettings.name_of("secret_arn")]
        for key in methods:
            assert routes[key].function_id == function_id, key
    assert routes[("GET", "/orders")].required_query == ("status",)
    assert routes[("GET", "/businesses")].required_query == ("type",)


def test_grants_are_no_wider_than_each_model_needs(synthesized: Synthesized) -> None:
    writes = {"dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:BatchWriteItem"}
    forum_id, _ = synthesized.function("tatami_functions.forum.handler.handler")
    assert not _actions(synthesized, forum_id) & writes  # the forum API only reads
    orders_id, _ = synthesized.function("tatami_functions.orders.handler.handler")
    assert _actions(synthesized, orders_id) & writes == {"dynamodb:PutItem", "dynamodb:UpdateItem"}
    businesses_id, _ = synthesized.function("tatami_functions.businesses.handler.handler")
    assert _actions(synthesized, businesses_id) & writes == {"dynamodb:PutItem"}
