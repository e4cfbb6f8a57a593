"""TableExport in a stack of its own beside a user's TableV2: its bucket, catalog, function, schedule and
dead-letter queue, grants on that table only, its own layers, and a bucket of the app's when given one."""

from __future__ import annotations

from typing import Any

import aws_cdk as cdk
import pytest
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_iam as iam
from aws_cdk import aws_s3 as s3
from aws_cdk.assertions import Match, Template

from infra.patterns import ExportSchedule, TableExport

PITR = dynamodb.PointInTimeRecoverySpecification(point_in_time_recovery_enabled=True)


def plain_stack() -> tuple[cdk.Stack, dynamodb.TableV2]:
    stack = cdk.Stack(cdk.App(), "Plain")
    key = dynamodb.Attribute(name="id", type=dynamodb.AttributeType.STRING)
    table = dynamodb.TableV2(stack, "Listings", partition_key=key, point_in_time_recovery_specification=PITR)
    return stack, table


def statements(template: Template, role_prefix: str) -> list[dict[str, Any]]:
    policies = template.find_resources("AWS::IAM::Policy")
    return [
        statement
        for logical_id, policy in policies.items()
        if logical_id.startswith(role_prefix)
        for statement in policy["Properties"]["PolicyDocument"]["Statement"]
    ]


def test_a_table_export_in_a_plain_stack_brings_its_bucket_catalog_function_and_schedule() -> None:
    stack, table = plain_stack()
    export = TableExport(
        stack, "Export", tables=[table], schedule=ExportSchedule(full_every=cdk.Duration.hours(12))
    )
    template = Template.from_stack(stack)
    template.resource_count_is("AWS::S3::Bucket", 2)  # the exports and their access logs
    template.resource_count_is("AWS::Lambda::LayerVersion", 2)  # the stack's pattern layers
    template.resource_count_is("AWS::Lambda::Alias", 0)
    template.resource_count_is("AWS::Athena::NamedQuery", 0)  # tatami's queries are the app's, not here
    template.has_resource_properties("AWS::Glue::Database", {"DatabaseInput": {"Name": "plain_exports"}})
    template.has_resource_properties("AWS::Athena::WorkGroup", {"Name": "plain-exports"})
    template.has_resource_properties(
        "AWS::Glue::Table", {"TableInput": Match.object_like({"Name": "raw_listings"})}
    )
    assert export.catalog.table_names == {"listings": "raw_listings"}
    variables = {"OLAP_FULL_EVERY_HOURS": "12"}
    template.has_resource_properties(
        "AWS::Lambda::Function",
        {
            "Handler": "tatami_functions.olap.handler.handler",
            "Environment": {"Variables": Match.object_like(variables)},
        },
    )
    function_id = stack.get_logical_id(export.function.node.default_child)  # type: ignore[arg-type]
    queue_id = stack.get_logical_id(export.schedule_failures.node.default_child)  # type: ignore[arg-type]
    (rule,) = template.find_resources("AWS::Events::Rule").values()
    assert rule["Properties"]["ScheduleExpression"] == "rate(1 hour)"
    (target,) = rule["Properties"]["Targets"]
    assert target["Arn"] == {"Fn::GetAtt": [function_id, "Arn"]}
    assert target["DeadLetterConfig"] == {"Arn": {"Fn::GetAtt": [queue_id, "Arn"]}}
    table_id = stack.get_logical_id(table.node.default_child)  # type: ignore[arg-type]
    (exports,) = [
        s
        for s in statements(template, "ExportExportFunction")
        if "dynamodb:ExportTableToPointInTime" in s["Action"]
    ]
    assert exports["Resource"] == {"Fn::GetAtt": [table_id, "Arn"]}
    assert export.export_stale_after.to_hours() == 18  # monitoring's heartbeat: 12 hours and 6


def test_a_given_bucket_is_used_and_grant_read_reads_its_exports() -> None:
    stack, table = plain_stack()
    bucket = s3.Bucket(stack, "Lake", enforce_ssl=True)
    export = TableExport(stack, "Export", tables={"homes": table}, bucket=bucket)
    reader = iam.Role(stack, "Reader", assumed_by=iam.ServicePrincipal("glue.amazonaws.com"))
    export.grant_read(reader)
    template = Template.from_stack(stack)
    template.resource_count_is("AWS::S3::Bucket", 1)
    assert export.catalog.table_names == {"homes": "raw_homes"}
    bucket_id = stack.get_logical_id(bucket.node.default_child)  # type: ignore[arg-type]
    (read,) = [s for s in statements(template, "ReaderDefaultPolicy") if "s3:GetObject*" in s["Action"]]
    assert {"Fn::Join": ["", [{"Fn::GetAtt": [bucket_id, "Arn"]}, "/exports/*"]]} in read["Resource"]


def test_a_table_without_point_in_time_recovery_fails_synthesis_naming_it() -> None:
    stack = cdk.Stack(cdk.App(), "Plain")
    key = dynamodb.Attribute(name="id", type=dynamodb.AttributeType.STRING)
    TableExport(stack, "Export", tables=[dynamodb.TableV2(stack, "Scratch", partition_key=key)])
    with pytest.raises(RuntimeError, match="TableExport: table 'scratch' has no point-in-time recovery"):
        cdk.App.of(stack).synth()  # type: ignore[union-attr]
