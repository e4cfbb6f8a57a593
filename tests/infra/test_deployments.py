"""Safe deployments: every API function and stream consumer is invoked through its alias `live`, which
a CodeDeploy deployment group shifts to each new version in the stage's steps and rolls back on the
service's Critical alarm; and each function's role writes its own log group and no other."""

from __future__ import annotations

import pytest
from aws_cdk import Stack
from aws_cdk import aws_codedeploy as codedeploy
from aws_cdk import aws_lambda as lambda_

from infra.app import create_app
from infra.constants import critical_alarm_name
from infra.constructs.deployments import DeploymentSettings
from infra.constructs.service_function import ServiceFunction
from tatami.local.gateway.routes import read_routes
from tatami.local.template.assembly import load_assembly
from tatami_functions import stack_outputs
from tests.support.synthesis import Synthesized


def invoked_targets(synthesized: Synthesized) -> dict[str, str | None]:
    """What invokes each API function and stream consumer: function id -> alias id (None: itself)."""
    assembly = load_assembly(synthesized.cdk_out)
    (stack,) = [s for s in assembly.stacks if s.name == stack_outputs.STACK_NAME]
    targets = {r.function_id: r.alias_id for r in read_routes(stack) if r.function_id}
    return targets | {m.function_id: m.alias_id for m in assembly.stream_mappings}


def test_every_api_function_and_stream_consumer_is_invoked_through_its_live_alias(
    synthesized: Synthesized,
) -> None:
    targets = invoked_targets(synthesized)
    aliases = synthesized.resources("AWS::Lambda::Alias")
    assert len(targets) >= 20  # 15 API functions, 5 stream consumers
    for function_id, alias_id in targets.items():
        assert alias_id is not None, f"{function_id} is invoked directly"
        alias = aliases[alias_id]["Properties"]
        assert alias["FunctionName"] == {"Ref": function_id}
        assert alias["Name"] == "live"
        version = alias["FunctionVersion"]["Fn::GetAtt"][0]
        assert synthesized.template["Resources"][version]["Type"] == "AWS::Lambda::Version"


def test_each_alias_is_shifted_by_a_group_that_rolls_back_on_its_services_critical_alarm(
    synthesized: Synthesized,
) -> None:
    resources = synthesized.template["Resources"]
    functions = synthesized.resources("AWS::Lambda::Function")
    for alias_id in filter(None, invoked_targets(synthesized).values()):
        alias = resources[alias_id]
        group_id = alias["UpdatePolicy"]["CodeDeployLambdaAliasUpdate"]["DeploymentGroupName"]["Ref"]
        group = resources[group_id]["Properties"]
        variables = functions[alias["Properties"]["FunctionName"]["Ref"]]["Properties"]["Environment"]
        service = variables["Variables"]["POWERTOOLS_SERVICE_NAME"]
        critical = critical_alarm_name(stack_outputs.STACK_NAME, service)
        assert group["AlarmConfiguration"] == {
            "Alarms": [{"Name": critical}],
            "Enabled": True,
            "IgnorePollAlarmFailure": False,  # without the alarm's state, the deployment stops
        }
        assert "DEPLOYMENT_STOP_ON_ALARM" in group["AutoRollbackConfiguration"]["Events"]
        assert group["DeploymentConfigName"] == "CodeDeployDefault.LambdaCanary10Percent5Minutes"


def test_the_groups_share_one_application_and_one_role(synthesized: Synthesized) -> None:
    groups = synthesized.resources("AWS::CodeDeploy::DeploymentGroup").values()
    assert len({str(g["Properties"]["ApplicationName"]) for g in groups}) == 1
    assert len({str(g["Properties"]["ServiceRoleArn"]) for g in groups}) == 1
    assert len(synthesized.resources("AWS::CodeDeploy::Application")) == 1


def test_a_stage_shifts_in_its_own_steps_and_the_others_in_the_defaults() -> None:
    context = {"deployments": {"default": "Linear10PercentEvery1Minute", "dev": "AllAtOnce"}}
    assert DeploymentSettings.from_context(context, "dev").config_name == "AllAtOnce"
    assert DeploymentSettings.from_context(context, "prod").config_name == "Linear10PercentEvery1Minute"
    assert DeploymentSettings.from_context(context, None).config_name == "Linear10PercentEvery1Minute"
    assert DeploymentSettings.from_context({}, "dev").config_name == "Canary10Percent5Minutes"


def test_a_stage_context_reaches_every_group_and_snap_start_every_aliased_function() -> None:
    """The construct tree of one stage (synthesis is the slow part, and not needed here)."""
    app = create_app(
        context={"stage": "dev", "tatami": {"deployments": {"dev": "AllAtOnce"}, "snapStart": True}}
    )
    stack = next(child for child in app.node.children if isinstance(child, Stack))
    groups = [c for c in stack.node.find_all() if isinstance(c, codedeploy.LambdaDeploymentGroup)]
    assert {g.deployment_config.deployment_config_name for g in groups} == {
        "CodeDeployDefault.LambdaAllAtOnce"
    }
    functions = {g.node.scope for g in groups}
    assert len(functions) == len(groups) >= 20
    for function in functions:
        assert isinstance(function, ServiceFunction)
        resource = function.node.default_child
        assert isinstance(resource, lambda_.CfnFunction)
        assert resource.snap_start.apply_on == "PublishedVersions"  # type: ignore[union-attr]


def test_an_unknown_deployment_configuration_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(ValueError, match="'Canary5' is not a CodeDeploy Lambda configuration; use one of"):
        DeploymentSettings.from_context({"deployments": {"default": "Canary5"}}, None)
