"""A function's alias in the template (what CodeDeploy shifts, what API Gateway and the stream mappings
invoke) stands for the function behind it: the local cloud serves one version, the template's."""

from __future__ import annotations

import json
from pathlib import Path

from tatami.doctor.offline import offline_resolver
from tatami.local.template.assembly import LOCAL_VERSION, AliasSpec, load_assembly

STREAM = {"Fn::GetAtt": ["Table", "StreamArn"]}
RESOURCES = {
    "Table": {
        "Type": "AWS::DynamoDB::Table",
        "Properties": {"KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]},
    },
    "Fn": {
        "Type": "AWS::Lambda::Function",
        "Properties": {"Handler": "h.handler", "Code": {"S3Key": "abc.zip"}},
    },
    "FnVersion1": {"Type": "AWS::Lambda::Version", "Properties": {"FunctionName": {"Ref": "Fn"}}},
    "FnLive": {
        "Type": "AWS::Lambda::Alias",
        "Properties": {
            "FunctionName": {"Ref": "Fn"},
            "FunctionVersion": {"Fn::GetAtt": ["FnVersion1", "Version"]},
            "Name": "live",
        },
        "UpdatePolicy": {"CodeDeployLambdaAliasUpdate": {"DeploymentGroupName": {"Ref": "FnDeployment"}}},
    },
    "FnDeployment": {"Type": "AWS::CodeDeploy::DeploymentGroup", "Properties": {}},
    "ThroughAlias": {
        "Type": "AWS::Lambda::EventSourceMapping",
        "Properties": {"EventSourceArn": STREAM, "FunctionName": {"Ref": "FnLive"}},
    },
    "Direct": {
        "Type": "AWS::Lambda::EventSourceMapping",
        "Properties": {"EventSourceArn": STREAM, "FunctionName": {"Ref": "Fn"}},
    },
}


def _cdk_out(root: Path) -> Path:
    (root / "asset.abc").mkdir()
    (root / "S.template.json").write_text(json.dumps({"Resources": RESOURCES}))
    files = {"abc": {"source": {"path": "asset.abc", "packaging": "zip"}}}
    (root / "S.assets.json").write_text(json.dumps({"files": files}))
    artifacts = {
        "S.assets": {"type": "cdk:asset-manifest", "properties": {"file": "S.assets.json"}},
        "S": {"type": "aws:cloudformation:stack", "properties": {"templateFile": "S.template.json"}},
    }
    (root / "manifest.json").write_text(json.dumps({"artifacts": artifacts}))
    return root


def test_an_alias_names_its_function_version_and_deployment_group(tmp_path: Path) -> None:
    assembly = load_assembly(_cdk_out(tmp_path))
    assert assembly.aliases == {"FnLive": AliasSpec("FnLive", "live", "Fn", "FnVersion1", "FnDeployment")}


def test_a_mapping_that_names_an_alias_runs_the_function_through_it(tmp_path: Path) -> None:
    mappings = {m.logical_id: m for m in load_assembly(_cdk_out(tmp_path)).stream_mappings}
    assert (mappings["ThroughAlias"].function_id, mappings["ThroughAlias"].alias_id) == ("Fn", "FnLive")
    assert (mappings["Direct"].function_id, mappings["Direct"].alias_id) == ("Fn", None)


def test_an_alias_resolves_to_its_qualified_arn_and_its_version_to_the_one_served(tmp_path: Path) -> None:
    resolver = offline_resolver(load_assembly(_cdk_out(tmp_path)))
    function_arn = resolver.get_att("Fn", "Arn")
    assert resolver.resolve({"Ref": "FnLive"}) == f"{function_arn}:live"
    assert resolver.resolve({"Fn::GetAtt": ["FnVersion1", "Version"]}) == LOCAL_VERSION
