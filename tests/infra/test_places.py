"""The places service and its ZOrderIndex in the synthesized template: what would hurt if it changed."""

from __future__ import annotations

import json
from typing import Any

import aws_cdk as cdk
import pytest
from aws_cdk import aws_dynamodb as dynamodb

from infra import constants
from infra.constructs.page_tokens import PageTokenKey
from infra.constructs.places import INDEX_NAME, PLACES_DOMAIN, PLACES_SCHEMA, PROJECTED
from infra.constructs.service_api import ServiceApi
from infra.constructs.service_function import SharedLayers
from infra.constructs.shared import Shared
from infra.constructs.zorder_index import ZOrderIndex
from tests.support.synthesis import Synthesized


def _table(synthesized: Synthesized) -> tuple[str, dict[str, Any]]:
    logical_id = synthesized.template["Outputs"][constants.OUTPUT_PLACES_TABLE]["Value"]["Ref"]
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


def test_the_sparse_gsi_is_keyed_by_bucket_and_binary_address_with_the_projection_search_needs(
    synthesized: Synthesized,
) -> None:
    _, table = _table(synthesized)
    assert table["KeySchema"] == [{"AttributeName": "id", "KeyType": "HASH"}]
    (gsi,) = table["GlobalSecondaryIndexes"]
    assert gsi["IndexName"] == INDEX_NAME
    assert gsi["KeySchema"] == [
        {"AttributeName": "zbucket", "KeyType": "HASH"},
        {"AttributeName": "zaddr", "KeyType": "RANGE"},
    ]
    types = {a["AttributeName"]: a["AttributeType"] for a in table["AttributeDefinitions"]}
    assert types == {"id": "S", "zbucket": "S", "zaddr": "B"}
    assert gsi["Projection"] == {"ProjectionType": "INCLUDE", "NonKeyAttributes": list(PROJECTED)}
    assert table["StreamSpecification"] == {"StreamViewType": "NEW_AND_OLD_IMAGES"}


def test_the_maintainer_mapping_reports_failures_bisects_retries_bounded_and_keeps_what_it_drops(
    synthesized: Synthesized,
) -> None:
    table_id, _ = _table(synthesized)
    maintainer_id, _ = _functions(synthesized)["PlacesZIndexMaintainer"]
    (mapping,) = [
        m["Properties"]
        for m in synthesized.resources("AWS::Lambda::EventSourceMapping").values()
        if m["Properties"]["FunctionName"] == {"Ref": maintainer_id}
    ]
    assert mapping["EventSourceArn"] == {"Fn::GetAtt": [table_id, "StreamArn"]}
    assert mapping["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    assert mapping["BisectBatchOnFunctionError"] is True
    assert 0 < mapping["MaximumRetryAttempts"] <= 10
    assert 0 < mapping["MaximumRecordAgeInSeconds"] <= 24 * 3600  # within the stream's retention
    assert mapping["StartingPosition"] == "TRIM_HORIZON"
    assert json.loads(mapping["FilterCriteria"]["Filters"][0]["Pattern"]) == {
        "eventName": ["INSERT", "MODIFY"]
    }
    queue_id = synthesized.template["Outputs"][constants.OUTPUT_PLACES_FAILURES]["Value"]["Ref"]
    assert mapping["DestinationConfig"]["OnFailure"]["Destination"] == {"Fn::GetAtt": [queue_id, "Arn"]}
    queue = synthesized.template["Resources"][queue_id]["Properties"]
    assert queue["SqsManagedSseEnabled"] is True and queue["MessageRetentionPeriod"] == 14 * 24 * 3600


def test_both_functions_get_the_zorder_layer_and_the_same_schema(synthesized: Synthesized) -> None:
    functions = _functions(synthesized)
    assert set(functions) == {"PlacesApiFunction", "PlacesZIndexMaintainer"}
    (layer_id,) = [k for k in synthesized.resources("AWS::Lambda::LayerVersion") if "Zorder" in k]
    settings = []
    for _, props in functions.values():
        assert {"Ref": layer_id} in props["Layers"]
        env = props["Environment"]["Variables"]
        settings.append({k: v for k, v in env.items() if k.startswith("ZINDEX_")})
    assert settings[0] == settings[1]
    assert settings[0]["ZINDEX_SCHEMA"] == PLACES_SCHEMA.to_json()
    assert settings[0]["ZINDEX_NAME"] == INDEX_NAME and settings[0]["ZINDEX_BUCKET_BITS"] == "11"
    assert json.loads(settings[0]["ZINDEX_DOMAIN"]) == {k: list(v) for k, v in PLACES_DOMAIN.items()}


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
    assert on_table == {"dynamodb:Query", "dynamodb:GetItem", "dynamodb:UpdateItem"}
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
        if api_id in json.dumps(m["Properties"]["Integration"]["Uri"])
    }
    assert routes == {("GET", "/places/search"), ("GET", "/places/{id}"), ("PUT", "/places/{id}")}
    parts = synthesized.template["Outputs"][constants.OUTPUT_PLACES_ZINDEX]["Value"]["Fn::Join"][1]
    settings = json.loads("".join(p if isinstance(p, str) else "TABLE" for p in parts))  # what the CLI reads
    assert settings["ZINDEX_SCHEMA"] == PLACES_SCHEMA.to_json() and settings["ZINDEX_TABLE"] == "TABLE"


def _stack() -> tuple[cdk.Stack, Shared]:
    stack = cdk.Stack(cdk.App(), "Z")
    shared = Shared(SharedLayers(stack, "Layers"), ServiceApi(stack, "Api"), PageTokenKey(stack, "Tokens"))
    shared.api.rest_api.root.add_method("GET")  # a REST API needs a method to synthesize
    return stack, shared


def test_the_construct_turns_the_stream_on_and_checks_its_bucket_bits() -> None:
    stack, shared = _stack()
    table = shared.data_table(
        stack, "Things", partition_key=dynamodb.Attribute(name="id", type=dynamodb.AttributeType.STRING)
    )
    props = dict(shared=shared, table=table, schema=PLACES_SCHEMA, index_name="things-z", service="places")
    ZOrderIndex(
        stack, "Index", bucket_bits=4, maintainer_handler="places.maintainer_handler.handler", **props
    )
    template = cdk.assertions.Template.from_stack(stack)
    template.has_resource_properties(
        "AWS::DynamoDB::GlobalTable", {"StreamSpecification": {"StreamViewType": "NEW_AND_OLD_IMAGES"}}
    )
    with pytest.raises(ValueError, match="bucket_bits"):
        ZOrderIndex(stack, "Bad", bucket_bits=17, maintainer_handler="x.y", **props)
