"""`tatami local fire <construct id>` needs each rule's construct path, which `python app.py` writes in
the stack's metadata file (the template's `aws:cdk:path` comes only with the CDK CLI)."""

from __future__ import annotations

import json
from pathlib import Path

from tatami.local.template.assembly import load_assembly

RULE = {
    "Type": "AWS::Events::Rule",
    "Properties": {
        "ScheduleExpression": "rate(1 hour)",
        "Targets": [{"Arn": {"Fn::GetAtt": ["OlapExportFunction1", "Arn"]}, "Id": "Target0"}],
    },
}


def _cdk_out(root: Path, rule: dict[str, object]) -> Path:
    (root / "App.template.json").write_text(json.dumps({"Resources": {"OlapExportSchedule9205AF96": rule}}))
    metadata = {
        "/App/Olap/ExportSchedule": [{"type": "aws:cdk:analytics:construct", "data": {}}],
        "/App/Olap/ExportSchedule/Resource": [
            {"type": "aws:cdk:logicalId", "data": "OlapExportSchedule9205AF96"}
        ],
    }
    (root / "App.metadata.json").write_text(json.dumps(metadata))
    stack = {
        "type": "aws:cloudformation:stack",
        "properties": {"templateFile": "App.template.json"},
        "additionalMetadataFile": "App.metadata.json",
        "displayName": "App",
    }
    (root / "manifest.json").write_text(json.dumps({"artifacts": {"App": stack}}))
    return root


def test_rules_get_their_construct_path_from_the_stack_metadata(tmp_path: Path) -> None:
    (rule,) = load_assembly(_cdk_out(tmp_path, RULE)).rules
    assert rule.construct_path == "App/Olap/ExportSchedule"
    assert rule.targets == (("OlapExportFunction1", None),)


def test_the_templates_own_path_metadata_still_wins(tmp_path: Path) -> None:
    with_path = {**RULE, "Metadata": {"aws:cdk:path": "App/Elsewhere/Rule/Resource"}}
    (rule,) = load_assembly(_cdk_out(tmp_path, with_path)).rules
    assert rule.construct_path == "App/Elsewhere/Rule"
