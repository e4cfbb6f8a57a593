"""The patterns in a stack of their own, with nothing of tatami's app: their own layers (one set for all
of them), stream mappings on the functions themselves, grants that name the tables."""

from __future__ import annotations

import aws_cdk as cdk
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_lambda as lambda_

from infra.patterns import IpRangeTable, ShardedCounter, ZOrderIndex
from zindex import Attribute, IndexedTable, ZIndex
from zorder import UInt


def test_three_patterns_in_a_plain_stack_share_one_set_of_layers_and_need_no_alarm() -> None:
    stack = cdk.Stack(cdk.App(), "Plain")
    table = dynamodb.TableV2(
        stack, "Things", partition_key=dynamodb.Attribute(name="id", type=dynamodb.AttributeType.STRING)
    )
    declaration = IndexedTable(
        "", ("id",), (Attribute("size", UInt(16)),), (ZIndex("things-z", ("size",), 2),)
    )
    index = ZOrderIndex(stack, "Index", table=table, declaration=declaration)
    ShardedCounter(stack, "Likes")
    ranges = IpRangeTable(stack, "Ranges")
    mine = lambda_.Function(
        stack,
        "Mine",
        runtime=lambda_.Runtime.PYTHON_3_13,
        handler="mine.handler",
        code=lambda_.Code.from_inline("def handler(event, context): return None"),
    )
    ranges.grant_lookup(mine)
    template = cdk.assertions.Template.from_stack(stack)
    template.resource_count_is("AWS::Lambda::LayerVersion", 2)  # zorder and Powertools, once
    template.resource_count_is("AWS::CodeDeploy::DeploymentGroup", 0)
    template.resource_count_is("AWS::Lambda::Alias", 0)
    template.resource_count_is("AWS::Lambda::EventSourceMapping", 2)  # the maintainer, the roll-up
    assert index.layers.zorder.node.path == "Plain/TatamiPatternLayers/Zorder"
    named = {"IP_RANGES_TABLE_NAME": stack.resolve(ranges.table.table_name)}
    template.has_resource_properties(
        "AWS::Lambda::Function",
        {"Handler": "mine.handler", "Environment": {"Variables": cdk.assertions.Match.object_like(named)}},
    )
