"""The reusable constructs on their own: production defaults and their switches."""

from __future__ import annotations

import aws_cdk as cdk
import pytest
from aws_cdk import assertions
from aws_cdk import aws_dynamodb as dynamodb

from infra.constructs.data_table import DataTable, TableCapacity
from infra.stacks.tatami_stack import StackSettings, TatamiStack

KEY = dynamodb.Attribute(name="pk", type=dynamodb.AttributeType.STRING)


def _table_template(**props: object) -> assertions.Template:
    stack = cdk.Stack(cdk.App(), "T")
    DataTable(stack, "Table", partition_key=KEY, **props)
    return assertions.Template.from_stack(stack)


def test_data_table_defaults_are_production_defaults() -> None:
    template = _table_template()
    template.has_resource(
        "AWS::DynamoDB::GlobalTable",
        {
            "DeletionPolicy": "Retain",
            "UpdateReplacePolicy": "Retain",
            "Properties": {
                "BillingMode": "PAY_PER_REQUEST",
                "SSESpecification": {"SSEEnabled": True, "SSEType": "KMS"},
                "Replicas": [
                    {
                        "DeletionProtectionEnabled": True,
                        "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": True},
                    }
                ],
            },
        },
    )


def test_provisioned_capacity_autoscales_and_warm_throughput() -> None:
    capacity = TableCapacity(provisioned=True, min_read=10, max_read=500, warm_writes=6000)
    template = _table_template(capacity=capacity)
    template.has_resource_properties(
        "AWS::DynamoDB::GlobalTable",
        {
            "BillingMode": "PROVISIONED",
            "WriteProvisionedThroughputSettings": {
                "WriteCapacityAutoScalingSettings": assertions.Match.object_like(
                    {"MinCapacity": 5, "MaxCapacity": 1000}
                )
            },
            "WarmThroughput": {"WriteUnitsPerSecond": 6000},
        },
    )


def test_capacity_rejects_inverted_bounds() -> None:
    with pytest.raises(ValueError, match="min_read 9 > max_read 3"):
        TableCapacity(provisioned=True, min_read=9, max_read=3)


def test_api_key_variant_requires_keys_and_a_usage_plan() -> None:
    stack = TatamiStack(cdk.App(), "K", settings=StackSettings.from_context({"auth": "api-key"}))
    template = assertions.Template.from_stack(stack)
    template.has_resource_properties(
        "AWS::ApiGateway::Method", {"ApiKeyRequired": True, "AuthorizationType": "NONE"}
    )
    template.resource_count_is("AWS::ApiGateway::UsagePlan", 1)
    template.resource_count_is("AWS::ApiGateway::ApiKey", 1)
