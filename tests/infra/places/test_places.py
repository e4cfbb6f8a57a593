"""The places service and its ZOrderIndex in the synthesized template: what would hurt if it changed."""

from __future__ import annotations

import json
from typing import Any

import aws_cdk as cdk
from aws_cdk import aws_dynamodb as dynamodb

from infra.constructs.page_tokens import PageTokenKey
from infra.constructs.service_api import ServiceApi
from infra.constructs.service_function import SharedLayers
from infra.constructs.shared import Shared
from infra.patterns import PatternFunctions, ZOrderIndex
from tatami_functions import stack_outputs
from tatami_functions.places.table import PLACES, PROJECTED
from tests.support.synthesis import Synthesized
from zindex import Attribute, IndexedTable, SortedIndex, ZIndex
from zorder import UInt


def _table(synthesized: Synthesized) -> tuple[str, dict[str, Any]]:
    logical_id = synthesized.template["Outputs"][stack_outputs.OUTPUT_PLACES_TABLE]["Value"]["Ref"]
    return logical_id, synthesized.template["Resources"][logical_id]["Properties"]


def _functions(synthesized: Synthesized) -> dict[str, tuple[str, dict[str, Any]]]:
    found = {}
    for logical_id, resource in synthesized.resources("AWS::Lambda::Function").items():
        for part in ("PlacesApiFunction", "PlacesZIndexMaintainer"):
            if logical_id.startswith(part):
                found[part] = (logical_id, resource["Properties"])
    return found


def _actions(synthesized: Synthesized, function: dict[str, Any]) -> dict[str, set[str]]:
    """Per resource (as JSON), the actions the function's role may take on it."""
    role = function["Role"]["Fn::GetAtt"][0]
    out: dict[str, set[str]] = {}
    for policy in synthesized.resources("AWS::IAM::Policy").values():
        if {"Ref": role} in policy["Properties"]["Roles"]:
            for s in policy["Properties"]["PolicyDocument"]["Statement"]:
                actions = [s["Action"]] if isinstance(s["Action"], str) else s["Action"]
                out.setdefault(json.dumps(s["Resource"]), set()).update(actions)
    return out


def test_each_declared_index_is_a_sparse_gsi_with_the_projection_search_needs(
    synthesized: Synthesized,
) -> None:
    _, table = _table(synthesized)
    assert table["KeySchema"] == [{"AttributeName": "id", "KeyType": "HASH"}]
    z, population = table["GlobalSecondaryIndexes"]
    assert z["IndexName"] == "places-z" and z["KeySchema"] == [
        {"AttributeName": "zbucket", "KeyType": "HASH"},
        {"AttributeName": "zaddr", "KeyType": "RANGE"},
    ]
    assert z["Projection"] == {"ProjectionType": "INCLUDE", "NonKeyAttributes": list(PROJECTED)}
    assert population["IndexName"] == "places-population" and population["KeySchema"] == [
        {"AttributeName": "pshard", "KeyType": "HASH"},
        {"AttributeName": "population", "KeyType": "RANGE"},
    ]
    assert "population" not in population["Projection"]["NonKeyAttributes"]  # the sort key is projected
    types = {a["AttributeName"]: a["AttributeType"] for a in table["AttributeDefinitions"]}
    assert types == {"id": "S", "zbucket": "S", "zaddr": "B", "pshard": "S", "population": "N"}
    assert table["StreamSpecification"] == {"StreamViewType": "NEW_AND_OLD_IMAGES"}


def test_the_maintainer_mapping_reports_failures_bisects_retries_bounded_and_keeps_what_it_drops(
    synthesized: Synthesized,
) -> None:
    table_id, _ = _table(synthesized)
    maintainer_id, _ = _functions(synthesized)["PlacesZIndexMaintainer"]
    (mapping,) = [
        m["Properties"]
        for m in synthesized.resources("AWS::Lambda::EventSourceMapping").values()
        if synthesized.invoked_function(m["Properties"]["FunctionName"]) == maintainer_id
    ]
    assert mapping["EventSourceArn"] == {"Fn::GetAtt": [table_id, "StreamArn"]}
    assert mapping["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    assert mapping["BisectBatchOnFunctionError"] is True
    assert 0 < mapping["MaximumRetryAttempts"] <= 10
    assert 0 < mapping["MaximumRecordAgeInSeconds"] <= 24 * 3600  # within the stream's retention
    assert mapping["StartingPosition"] == "TRIM_HORIZON"
    assert "FilterCriteria" not in mapping  # deletions too: they take entries out of the count
    queue_id = synthesized.template["Outputs"][stack_outputs.OUTPUT_PLACES_FAILURES]["Value"]["Ref"]
    assert mapping["DestinationConfig"]["OnFailure"]["Destination"] == {"Fn::GetAtt": [queue_id, "Arn"]}
    queue = synthesized.template["Resources"][queue_id]["Properties"]
    assert queue["SqsManagedSseEnabled"] is True and queue["MessageRetentionPeriod"] == 14 * 24 * 3600


def test_both_functions_get_the_zorder_layer_and_the_same_declaration(synthesized: Synthesized) -> None:
    functions = _functions(synthesized)
    assert set(functions) == {"PlacesApiFunction", "PlacesZIndexMaintainer"}
    assert functions["PlacesZIndexMaintainer"][1]["Handler"] == "zindex.lambda_handler.handler"
    (layer_id,) = [k for k in synthesized.resources("AWS::Lambda::LayerVersion") if "Zorder" in k]
    specs = []
    for _, props in functions.values():
        assert {"Ref": layer_id} in props["Layers"]
        specs.append(_declaration(props["Environment"]["Variables"]["ZINDEX_SPEC"]))
    assert specs[0] == specs[1] == PLACES.named("TABLE")


def _declaration(value: Any) -> IndexedTable:
    """A declaration as the template holds it (the table's name a reference), with that name "TABLE"."""
    parts = value["Fn::Join"][1] if isinstance(value, dict) else [value]
    return IndexedTable.from_json("".join(p if isinstance(p, str) else "TABLE" for p in parts))


def test_least_privilege(synthesized: Synthesized) -> None:
    table_id, _ = _table(synthesized)
    functions = _functions(synthesized)
    maintainer = _actions(synthesized, functions["PlacesZIndexMaintainer"][1])
    api = _actions(synthesized, functions["PlacesApiFunction"][1])
    on_table = {a for resource, actions in maintainer.items() if table_id in resource for a in actions}
    assert on_table == {
        "dynamodb:UpdateItem",  # the conditional write-back, nothing else on items
        "dynamodb:ListStreams",
        "dynamodb:DescribeStream",
        "dynamodb:GetRecords",
        "dynamodb:GetShardIterator",
    }
    on_table = {a for resource, actions in api.items() if table_id in resource for a in actions}
    assert on_table == {  # its plans' reads, the statistics, PUT /places/{id}
        "dynamodb:Query",
        "dynamodb:Scan",
        "dynamodb:GetItem",
        "dynamodb:BatchGetItem",
        "dynamodb:UpdateItem",
    }
    for actions in (*maintainer.values(), *api.values()):
        assert not any(a == "*" or a.endswith(":*") for a in actions)


def test_routes_and_outputs(synthesized: Synthesized) -> None:
    resources = synthesized.resources("AWS::ApiGateway::Resource")

    def path(resource_id: str) -> str:
        props = resources[resource_id]["Properties"]
        parent = props["ParentId"]
        return (path(parent["Ref"]) if "Ref" in parent else "") + "/" + props["PathPart"]

    api_id, _ = _functions(synthesized)["PlacesApiFunction"]
    routes = {
        (m["Properties"]["HttpMethod"], path(m["Properties"]["ResourceId"]["Ref"]))
        for m in synthesized.resources("AWS::ApiGateway::Method").values()
        if synthesized.invoked_function(m["Properties"]["Integration"]["Uri"]) == api_id
    }
    assert routes == {("GET", "/places/search"), ("GET", "/places/{id}"), ("PUT", "/places/{id}")}
    output = synthesized.template["Outputs"][stack_outputs.OUTPUT_PLACES_ZINDEX]["Value"]
    assert _declaration(output) == PLACES.named("TABLE")  # what the CLI reads


def _stack() -> tuple[cdk.Stack, Shared]:
    stack = cdk.Stack(cdk.App(), "Z")
    shared = Shared(SharedLayers(stack, "Layers"), ServiceApi(stack, "Api"), PageTokenKey(stack, "Tokens"))
    shared.api.rest_api.root.add_method("GET")  # a REST API needs a method to synthesize
    return stack, shared


def test_the_construct_indexes_any_table_with_the_engines_own_maintainer() -> None:
    stack, shared = _stack()
    table = shared.data_table(
        stack, "Things", partition_key=dynamodb.Attribute(name="id", type=dynamodb.AttributeType.STRING)
    )
    declaration = IndexedTable(
        "",
        ("id",),
        (Attribute("size", UInt(16)), Attribute("weight", UInt(16))),
        (ZIndex("things-z", ("size", "weight"), 4), SortedIndex("things-by-weight", "weight", 2)),
    )
    ZOrderIndex(
        stack,
        "Index",
        table=table,
        declaration=declaration,
        functions=PatternFunctions(shared.layers, "things"),
    )
    template = cdk.assertions.Template.from_stack(stack)
    template.has_resource_properties(
        "AWS::DynamoDB::GlobalTable",
        {
            "StreamSpecification": {"StreamViewType": "NEW_AND_OLD_IMAGES"},
            "GlobalSecondaryIndexes": [
                cdk.assertions.Match.object_like({"IndexName": "things-z"}),
                cdk.assertions.Match.object_like({"IndexName": "things-by-weight"}),
            ],
        },
    )
    template.has_resource_properties("AWS::Lambda::Function", {"Handler": "zindex.lambda_handler.handler"})
