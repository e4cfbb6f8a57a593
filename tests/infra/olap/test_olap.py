"""The OLAP export in the template: the bucket's protections, PITR on every exported table, the Glue
tables over the export layout, the workgroup, the named queries, and the function's narrow grants."""

from __future__ import annotations

import json
from typing import Any

import aws_cdk as cdk
import pytest
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk.assertions import Template

from infra.constructs.page_tokens import PageTokenKey
from infra.constructs.service_api import ServiceApi
from infra.constructs.service_function import SharedLayers
from infra.constructs.shared import Shared
from infra.services.olap import OlapService, exportable_tables
from tatami_functions import stack_outputs
from tatami_functions.olap.catalog import named_queries, with_views
from tatami_functions.olap.settings import ExportSettings
from tatami_functions.olap.tables import DECLARED, exported_table, table_key
from tests.support.synthesis import Synthesized

pytestmark = pytest.mark.infra


def one(synthesized: Synthesized, resource_type: str, prefix: str = "Olap") -> tuple[str, dict[str, Any]]:
    (found,) = [(k, v) for k, v in synthesized.resources(resource_type).items() if k.startswith(prefix)]
    return found


def bucket_id(synthesized: Synthesized) -> str:
    return str(synthesized.template["Outputs"][stack_outputs.OUTPUT_OLAP_BUCKET]["Value"]["Ref"])


def exported_table_ids(synthesized: Synthesized) -> dict[str, str]:
    """Table key -> logical id, read back from the OlapTables output's Fn::Join."""
    parts = synthesized.template["Outputs"][stack_outputs.OUTPUT_OLAP_TABLES]["Value"]["Fn::Join"][1]
    keys = [part.split('"')[-3] for part in parts if isinstance(part, str) and part.endswith(':"')]
    ids = [part["Fn::GetAtt"][0] for part in parts if isinstance(part, dict)]
    return dict(zip(keys, ids, strict=True))


def test_the_bucket_blocks_public_access_enforces_tls_encrypts_and_moves_old_exports(
    synthesized: Synthesized,
) -> None:
    bucket = synthesized.template["Resources"][bucket_id(synthesized)]["Properties"]
    assert all(bucket["PublicAccessBlockConfiguration"].values())
    (rule,) = bucket["BucketEncryption"]["ServerSideEncryptionConfiguration"]
    assert rule["ServerSideEncryptionByDefault"]["SSEAlgorithm"] == "AES256"
    assert "DestinationBucketName" in bucket["LoggingConfiguration"]
    rules = {r.get("Prefix"): r for r in bucket["LifecycleConfiguration"]["Rules"]}
    assert [(t["StorageClass"], t["TransitionInDays"]) for t in rules["exports/"]["Transitions"]] == [
        ("STANDARD_IA", 30),
        ("GLACIER_IR", 90),
    ]
    assert rules["athena-results/"]["ExpirationInDays"] == 30


def test_the_bucket_policy_denies_every_request_without_tls(synthesized: Synthesized) -> None:
    policies = synthesized.resources("AWS::S3::BucketPolicy").values()
    (policy,) = [p for p in policies if p["Properties"]["Bucket"] == {"Ref": bucket_id(synthesized)}]
    (statement,) = policy["Properties"]["PolicyDocument"]["Statement"]
    assert statement["Effect"] == "Deny" and statement["Action"] == "s3:*"
    assert statement["Condition"] == {"Bool": {"aws:SecureTransport": "false"}}
    assert statement["Principal"] == {"AWS": "*"}


def tables_with_pitr(synthesized: Synthesized) -> dict[str, str]:
    """Table key -> logical id of every table of the template with point-in-time recovery."""
    names = {
        output["Value"]["Ref"]: key
        for key, output in synthesized.template["Outputs"].items()
        if key.endswith("TableName") and "Ref" in output["Value"]
    }
    return {
        table_key(names[logical_id]): logical_id
        for logical_id, table in synthesized.resources("AWS::DynamoDB::GlobalTable").items()
        if all(
            r["PointInTimeRecoverySpecification"]["PointInTimeRecoveryEnabled"]
            for r in table["Properties"]["Replicas"]
        )
    }


def test_every_table_with_point_in_time_recovery_is_exported(synthesized: Synthesized) -> None:
    ids = exported_table_ids(synthesized)
    assert ids == tables_with_pitr(synthesized)
    assert len(ids) == len(synthesized.resources("AWS::DynamoDB::GlobalTable")) and set(DECLARED) <= set(ids)


def test_glue_tables_read_the_export_layout_as_dynamodb_json(synthesized: Synthesized) -> None:
    database_id, database = one(synthesized, "AWS::Glue::Database")
    assert database["Properties"]["DatabaseInput"]["Name"] == "tatami_olap"
    tables = {
        t["Properties"]["TableInput"]["Name"]: t["Properties"]
        for t in synthesized.resources("AWS::Glue::Table").values()
    }
    ids = exported_table_ids(synthesized)
    assert sorted(tables) == sorted(f"raw_{key}" for key in ids)
    for key, logical_id in ids.items():
        definitions = synthesized.template["Resources"][logical_id]["Properties"]["AttributeDefinitions"]
        exported = exported_table(key, definitions)
        props = tables[f"raw_{key}"]
        assert props["DatabaseName"] == {"Ref": database_id}
        storage = props["TableInput"]["StorageDescriptor"]
        assert storage["Columns"] == [{"Name": "item", "Type": exported.glue_type()}]
        assert storage["SerdeInfo"]["SerializationLibrary"] == "org.openx.data.jsonserde.JsonSerDe"
        assert storage["InputFormat"] == "org.apache.hadoop.mapred.TextInputFormat"
        assert storage["Location"] == {
            "Fn::Join": ["", ["s3://", {"Ref": bucket_id(synthesized)}, f"/exports/{key}/unpublished/"]]
        }


def test_the_workgroup_enforces_an_encrypted_result_location(synthesized: Synthesized) -> None:
    _, workgroup = one(synthesized, "AWS::Athena::WorkGroup")
    configuration = workgroup["Properties"]["WorkGroupConfiguration"]
    assert configuration["EnforceWorkGroupConfiguration"] is True
    results = configuration["ResultConfiguration"]
    assert results["EncryptionConfiguration"] == {"EncryptionOption": "SSE_S3"}
    assert results["OutputLocation"] == {
        "Fn::Join": ["", ["s3://", {"Ref": bucket_id(synthesized)}, "/athena-results/"]]
    }
    assert configuration["BytesScannedCutoffPerQuery"] > 0


def test_named_queries_are_the_shared_sql_files_with_their_views(synthesized: Synthesized) -> None:
    workgroup_id, _ = one(synthesized, "AWS::Athena::WorkGroup")
    queries = {
        q["Properties"]["Name"]: q["Properties"]
        for q in synthesized.resources("AWS::Athena::NamedQuery").values()
    }
    assert sorted(queries) == sorted(named_queries())
    for name, query in named_queries().items():
        assert queries[name]["QueryString"] == with_views(query.sql)
        assert (
            queries[name]["WorkGroup"] == {"Ref": workgroup_id} and queries[name]["Database"] == "tatami_olap"
        )


def test_the_function_runs_hourly_and_may_export_only_the_exported_tables(synthesized: Synthesized) -> None:
    function_id, function = one(synthesized, "AWS::Lambda::Function", "OlapExportFunction")
    variables = function["Properties"]["Environment"]["Variables"]
    assert set(variables) >= ExportSettings.names(optional=False)
    assert function["Properties"]["Handler"] == "tatami_functions.olap.handler.handler"
    _, rule = one(synthesized, "AWS::Events::Rule", "OlapExportSchedule")
    assert rule["Properties"]["ScheduleExpression"] == "rate(1 hour)"
    assert rule["Properties"]["Targets"][0]["Arn"] == {"Fn::GetAtt": [function_id, "Arn"]}
    _, policy = one(synthesized, "AWS::IAM::Policy", "OlapExportFunctionServiceRole")
    statements = policy["Properties"]["PolicyDocument"]["Statement"]
    actions = {
        a for s in statements for a in ([s["Action"]] if isinstance(s["Action"], str) else s["Action"])
    }
    assert not any(a.startswith("dynamodb:") and a not in _EXPORT_ACTIONS for a in actions), actions
    (export,) = [s for s in statements if s["Action"] == "dynamodb:ExportTableToPointInTime"]
    expected = sorted(
        json.dumps({"Fn::GetAtt": [i, "Arn"]}) for i in exported_table_ids(synthesized).values()
    )
    assert sorted(json.dumps(r) for r in export["Resource"]) == expected


_EXPORT_ACTIONS = {"dynamodb:ExportTableToPointInTime", "dynamodb:DescribeExport"}


def _stack_with(table_props: dict[str, Any], key: str = "orders") -> cdk.Stack:
    stack = cdk.Stack(cdk.App(), "Olap")
    shared = Shared(
        SharedLayers(stack, "Layers"), ServiceApi(stack, "Api"), PageTokenKey(stack, "PageTokens")
    )
    shared.api.rest_api.root.add_method("GET")  # an API needs a method to synthesize
    pk = dynamodb.Attribute(name="pk", type=dynamodb.AttributeType.STRING)
    table = dynamodb.TableV2(stack, "Orders", partition_key=pk, **table_props)
    OlapService(stack, "Olap", shared, tables={key: table})
    return stack


def test_a_table_without_point_in_time_recovery_fails_synthesis_naming_it() -> None:
    with pytest.raises(RuntimeError, match="table 'orders' has no point-in-time recovery"):
        cdk.App.of(_stack_with({})).synth()  # type: ignore[union-attr]
    pitr = dynamodb.PointInTimeRecoverySpecification(point_in_time_recovery_enabled=True)
    cdk.App.of(_stack_with({"point_in_time_recovery_specification": pitr})).synth()  # type: ignore[union-attr]


def test_a_table_without_declared_columns_is_exported_with_its_key_attributes() -> None:
    pitr = dynamodb.PointInTimeRecoverySpecification(point_in_time_recovery_enabled=True)
    stack = _stack_with({"point_in_time_recovery_specification": pitr}, key="carts")
    glue_types = [
        t["Properties"]["TableInput"]["StorageDescriptor"]["Columns"][0]["Type"]
        for t in Template.from_stack(stack).find_resources("AWS::Glue::Table").values()
    ]
    assert glue_types == ["struct<pk:struct<s:string>>"]


def test_only_tables_with_point_in_time_recovery_and_a_name_output_are_exportable() -> None:
    stack = cdk.Stack(cdk.App(), "S")
    key = dynamodb.Attribute(name="pk", type=dynamodb.AttributeType.STRING)
    pitr = dynamodb.PointInTimeRecoverySpecification(point_in_time_recovery_enabled=True)
    kept = dynamodb.TableV2(stack, "Kept", partition_key=key, point_in_time_recovery_specification=pitr)
    dynamodb.TableV2(stack, "Scratch", partition_key=key)  # no PITR: not exportable, no output needed
    cdk.CfnOutput(stack, "KeptThingsTableName", value=kept.table_name)
    assert exportable_tables(stack) == {"kept_things": kept}
    dynamodb.TableV2(stack, "Anonymous", partition_key=key, point_in_time_recovery_specification=pitr)
    with pytest.raises(ValueError, match=r"S/Anonymous has no `\.\.\.TableName` stack output"):
        exportable_tables(stack)
