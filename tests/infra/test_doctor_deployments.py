"""`tatami doctor` fails on a `logs:` grant beyond the function's own log group, and on an API function or
stream consumer that does not deploy through an alias CodeDeploy shifts and rolls back on its
service's Critical alarm: each on a deliberately broken copy of the app."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from infra.constants import critical_alarm_name
from tatami.doctor import ASSEMBLY_CHECKS
from tatami.local.template.assembly import load_assembly
from tatami_functions import stack_outputs
from tests.support.synthesis import Synthesized
from tests.support.templates import Template, copy_assembly, function_id

BASIC_EXECUTION_ROLE = {
    "Fn::Join": [
        "",
        ["arn:", {"Ref": "AWS::Partition"}, ":iam::aws:policy/service-role/AWSLambdaBasicExecutionRole"],
    ]
}


def _role(template: Template, prefix: str) -> dict[str, Any]:
    props = template["Resources"][function_id(template, prefix)]["Properties"]
    return dict(template["Resources"][props["Role"]["Fn::GetAtt"][0]])


def _alias(template: Template, prefix: str) -> str:
    (found,) = [
        k
        for k, r in template["Resources"].items()
        if r["Type"] == "AWS::Lambda::Alias"
        and r["Properties"]["FunctionName"] == {"Ref": function_id(template, prefix)}
    ]
    return found


def basic_execution_role(prefix: str) -> Callable[[Template], None]:
    def change(template: Template) -> None:
        _role(template, prefix)["Properties"]["ManagedPolicyArns"] = [BASIC_EXECUTION_ROLE]

    return change


def writes_logs_of(prefix: str, other: str) -> Callable[[Template], None]:
    """The function's role may also put log events in `other`'s log group."""

    def change(template: Template) -> None:
        other_props = template["Resources"][function_id(template, other)]["Properties"]
        group = {"Fn::GetAtt": [other_props["LoggingConfig"]["LogGroup"]["Ref"], "Arn"]}
        role = {
            "Ref": template["Resources"][function_id(template, prefix)]["Properties"]["Role"]["Fn::GetAtt"][0]
        }
        policy = next(
            r
            for r in template["Resources"].values()
            if r["Type"] == "AWS::IAM::Policy" and role in r["Properties"]["Roles"]
        )
        statement = {"Action": "logs:PutLogEvents", "Effect": "Allow", "Resource": group}
        policy["Properties"]["PolicyDocument"]["Statement"].append(statement)

    return change


def integration_without_alias(prefix: str) -> Callable[[Template], None]:
    """API Gateway invokes the function itself: its integration URIs name the function's ARN."""

    def change(template: Template) -> None:
        alias, function = _alias(template, prefix), function_id(template, prefix)
        text = json.dumps(template).replace(
            f'{{"Ref": "{alias}"}}', f'{{"Fn::GetAtt": ["{function}", "Arn"]}}'
        )
        template.update(json.loads(text))

    return change


def mapping_without_alias(prefix: str) -> Callable[[Template], None]:
    def change(template: Template) -> None:
        alias, function = _alias(template, prefix), function_id(template, prefix)
        for resource in template["Resources"].values():
            props = resource["Properties"]
            # CDK names the alias inside a qualified name (Fn::Join of the name and `:live`).
            if resource["Type"] == "AWS::Lambda::EventSourceMapping" and f'"{alias}"' in json.dumps(props):
                props["FunctionName"] = {"Ref": function}

    return change


def alias_without_deployment(prefix: str) -> Callable[[Template], None]:
    def change(template: Template) -> None:
        del template["Resources"][_alias(template, prefix)]["UpdatePolicy"]

    return change


def group_without(prefix: str, setting: str) -> Callable[[Template], None]:
    def change(template: Template) -> None:
        alias = template["Resources"][_alias(template, prefix)]
        group = alias["UpdatePolicy"]["CodeDeployLambdaAliasUpdate"]["DeploymentGroupName"]["Ref"]
        del template["Resources"][group]["Properties"][setting]

    return change


PLACES_CRITICAL = critical_alarm_name(stack_outputs.STACK_NAME, "places")


@pytest.mark.parametrize(
    ("change", "check", "expected"),
    [
        (
            basic_execution_role("PlacesApiFunction"),
            "grants",
            ("grant    PlacesApiFunction", "is granted logs:CreateLogGroup on *, beyond its own log group"),
        ),
        (
            writes_logs_of("PlacesApiFunction", "CountersRollupFunction"),
            "grants",
            ("grant    PlacesApiFunction", "is granted logs:PutLogEvents on CountersRollupFunctionLogs"),
        ),
        (
            integration_without_alias("PlacesApiFunction"),
            "deployments",
            ("deploy   PlacesApiFunction", "GET /places/{id} invokes the function itself, not an alias"),
        ),
        (
            mapping_without_alias("CountersRollupFunction"),
            "deployments",
            (
                "deploy   CountersRollupFunction",
                "invokes the function itself, not an alias CodeDeploy shifts",
            ),
        ),
        (
            alias_without_deployment("PlacesApiFunction"),
            "deployments",
            ("deploy   PlacesApiFunction", "names no CodeDeploy deployment group in its UpdatePolicy"),
        ),
        (
            group_without("PlacesApiFunction", "AlarmConfiguration"),
            "deployments",
            (
                "deploy   PlacesApiFunction",
                f"does not stop on the service's Critical alarm {PLACES_CRITICAL}",
            ),
        ),
        (
            group_without("CountersRollupFunction", "AutoRollbackConfiguration"),
            "deployments",
            ("deploy   CountersRollupFunction", "does not roll back on DEPLOYMENT_STOP_ON_ALARM"),
        ),
    ],
    ids=["all logs", "another's logs", "route", "mapping", "no group", "no alarm", "no rollback"],
)
def test_a_broken_copy_fails_naming_the_cause(
    synthesized: Synthesized,
    tmp_path: Path,
    change: Callable[[Template], None],
    check: str,
    expected: tuple[str, str],
) -> None:
    assembly = load_assembly(copy_assembly(synthesized.cdk_out, tmp_path / "cdk.out", change))
    (run,) = [function for name, function in ASSEMBLY_CHECKS if name == check]
    lines = [finding.line() for finding in run(assembly)]
    assert any(all(part in line for part in expected) for line in lines), lines
