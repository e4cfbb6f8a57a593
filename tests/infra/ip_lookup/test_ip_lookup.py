"""The IP lookup construct in the template: what would hurt if it changed (keys, grants, cache keys)."""

from __future__ import annotations

from typing import Any

import aws_cdk as cdk
import pytest
from aws_cdk import Duration, assertions

from infra.constructs.page_tokens import PageTokenKey
from infra.constructs.service_api import ServiceApi
from infra.constructs.service_function import SharedLayers
from infra.constructs.shared import Shared
from infra.services.ip_lookup import IpLookupService, LookupCache
from infra.stacks.tatami_stack import TatamiStack
from tatami_functions import stack_outputs
from tatami_functions.ip_lookup.settings import LookupSettings
from tests.support.synthesis import Synthesized

READS = {"dynamodb:Query", "dynamodb:GetItem"}
WRITES = {"dynamodb:PutItem", "dynamodb:BatchWriteItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem"}


def ranges_table(template: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    (found,) = [
        (k, v)
        for k, v in template["Resources"].items()
        if v["Type"] == "AWS::DynamoDB::GlobalTable" and "IpLookup" in k
    ]
    return found


def lookup_function(synthesized: Synthesized) -> tuple[str, dict[str, Any]]:
    (found,) = [
        (k, v) for k, v in synthesized.resources("AWS::Lambda::Function").items() if "IpLookupLookup" in k
    ]
    return found


def test_ranges_table_keys_are_a_string_prefix_and_a_binary_start(synthesized: Synthesized) -> None:
    _, table = ranges_table(synthesized.template)
    props = table["Properties"]
    assert props["KeySchema"] == [
        {"AttributeName": "pk", "KeyType": "HASH"},
        {"AttributeName": "sk", "KeyType": "RANGE"},
    ]
    assert {d["AttributeName"]: d["AttributeType"] for d in props["AttributeDefinitions"]} == {
        "pk": "S",
        "sk": "B",
    }
    assert "GlobalSecondaryIndexes" not in props and "StreamSpecification" not in props
    assert props["BillingMode"] == "PAY_PER_REQUEST" and table["DeletionPolicy"] == "Retain"


def test_the_function_reads_the_table_and_cannot_write_it(synthesized: Synthesized) -> None:
    table_id, _ = ranges_table(synthesized.template)
    function_id, function = lookup_function(synthesized)
    env = function["Properties"]["Environment"]["Variables"]
    assert env[LookupSettings.name_of("table")] == {"Ref": table_id}
    assert env[LookupSettings.name_of("alias_ttl_seconds")] == "30"
    assert function["Properties"]["Handler"] == "tatami_functions.ip_lookup.handler.handler"
    role = function["Properties"]["Role"]["Fn::GetAtt"][0]
    statements = [
        s
        for policy in synthesized.resources("AWS::IAM::Policy").values()
        if {"Ref": role} in policy["Properties"]["Roles"]
        for s in policy["Properties"]["PolicyDocument"]["Statement"]
    ]
    on_table = [s for s in statements if table_id in str(s["Resource"])]
    actions = {a for s in on_table for a in (s["Action"] if isinstance(s["Action"], list) else [s["Action"]])}
    assert actions >= READS and not actions & WRITES, function_id


def test_both_routes_are_served_and_get_is_cache_keyed_by_address(synthesized: Synthesized) -> None:
    function_id, _ = lookup_function(synthesized)
    resources = synthesized.resources("AWS::ApiGateway::Resource")
    served = {}
    for method in synthesized.resources("AWS::ApiGateway::Method").values():
        props = method["Properties"]
        if synthesized.invoked_function(props["Integration"]["Uri"]) == function_id:
            served[(props["HttpMethod"], resources[props["ResourceId"]["Ref"]]["Properties"]["PathPart"])] = (
                props
            )
    assert set(served) == {("GET", "{address}"), ("POST", "lookups")}
    get = served[("GET", "{address}")]
    assert get["RequestParameters"] == {"method.request.path.address": True}
    assert get["Integration"]["CacheKeyParameters"] == ["method.request.path.address"]


def test_the_table_name_is_a_stack_output(synthesized: Synthesized) -> None:
    table_id, _ = ranges_table(synthesized.template)
    assert synthesized.template["Outputs"][stack_outputs.OUTPUT_IP_RANGES_TABLE]["Value"] == {"Ref": table_id}


def test_the_stage_cache_is_off_by_default(synthesized: Synthesized) -> None:
    (stage,) = synthesized.resources("AWS::ApiGateway::Stage").values()
    assert not stage["Properties"].get("CacheClusterEnabled")


def test_the_cache_option_caches_get_ip_per_address_and_keeps_the_stage_limits() -> None:
    stack = cdk.Stack(cdk.App(), "Cached")
    shared = Shared(
        SharedLayers(stack, "Layers"), ServiceApi(stack, "Api"), PageTokenKey(stack, "PageTokens")
    )
    IpLookupService(stack, "IpLookup", shared, cache=LookupCache(ttl=Duration.minutes(10), cluster_gb="1.6"))
    template = assertions.Template.from_stack(stack).to_json()
    (stage,) = [r for r in template["Resources"].values() if r["Type"] == "AWS::ApiGateway::Stage"]
    props = stage["Properties"]
    assert (props["CacheClusterEnabled"], props["CacheClusterSize"]) == (True, "1.6")
    defaults, cached = props["MethodSettings"]
    assert cached == {
        "CacheDataEncrypted": True,
        "CacheTtlInSeconds": 600,
        "CachingEnabled": True,
        "DataTraceEnabled": False,
        "HttpMethod": "GET",
        "LoggingLevel": defaults["LoggingLevel"],
        "MetricsEnabled": True,
        "ResourcePath": "/~1ip~1{address}",
        "ThrottlingBurstLimit": defaults["ThrottlingBurstLimit"],
        "ThrottlingRateLimit": defaults["ThrottlingRateLimit"],
    }


def test_cache_settings_validate_themselves() -> None:
    with pytest.raises(ValueError, match=r"cache ttl 0 s must be within 1\.\.3600 s"):
        LookupCache(ttl=Duration.seconds(0))
    with pytest.raises(ValueError, match=r"cluster_gb '2' must be one of 0\.5, 1\.6"):
        LookupCache(cluster_gb="2")


def test_cdk_context_switches_the_cache_on_for_the_whole_app() -> None:
    assert LookupCache.from_context(None) is None
    assert LookupCache.from_context({"ipLookupCacheTtlSeconds": 0}) is None
    app = cdk.App(context={"tatami": {"ipLookupCacheTtlSeconds": 120, "ipLookupCacheClusterGb": "1.6"}})
    template = assertions.Template.from_stack(TatamiStack(app, "CachedApp"))
    template.has_resource_properties(
        "AWS::ApiGateway::Stage",
        {
            "CacheClusterEnabled": True,
            "CacheClusterSize": "1.6",
            "MethodSettings": assertions.Match.array_with(
                [assertions.Match.object_like({"ResourcePath": "/~1ip~1{address}", "CacheTtlInSeconds": 120})]
            ),
        },
    )
