"""Safe deployments: what API Gateway and the stream mappings invoke is an alias, shifted by CodeDeploy.

`live_alias(function)` gives a function the alias `live` on its current version and a deployment
group that moves the alias from the old version to the new one in the stage's steps (canary, linear
or all at once) and rolls it back when the service's Critical alarm fires
(`infra.constants.critical_alarm_name`: a composite the monitoring stack builds, named here rather
than referenced, so neither stack waits on the other). Every alias of a stack shares one CodeDeploy
application and one service role: a function adds three resources (version, alias, group), not five.

Settings (CDK context `tatami`): `deployments`, a CodeDeploy predefined Lambda configuration per stage
(`{"default": "Canary10Percent5Minutes", "dev": "AllAtOnce"}`; a stage not listed takes `default`),
and `snapStart` (true: the published versions start from a snapshot; Python 3.12 and later).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from aws_cdk import Stack
from aws_cdk import aws_cloudwatch as cloudwatch
from aws_cdk import aws_codedeploy as codedeploy
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from constructs import Construct

from infra import constants
from infra.constructs.service_function import ServiceFunction
from infra.nag import acknowledge

ALIAS_NAME = "live"
DEFAULT_STAGE = "default"  # the `deployments` entry of every stage it does not name
DEFAULT_CONFIG = "Canary10Percent5Minutes"
_PREFIX = "CodeDeployDefault.Lambda"
# CodeDeploy's predefined Lambda configurations by their short names ("Linear10PercentEvery1Minute").
PREDEFINED: dict[str, codedeploy.ILambdaDeploymentConfig] = {
    config.deployment_config_name.removeprefix(_PREFIX): config
    for config in (
        getattr(codedeploy.LambdaDeploymentConfig, name)
        for name in dir(codedeploy.LambdaDeploymentConfig)
        if name.startswith(("ALL_", "CANARY_", "LINEAR_"))
    )
}
_CODEDEPLOY_FOR_LAMBDA = "service-role/AWSCodeDeployRoleForLambdaLimited"


@dataclass(frozen=True, slots=True)
class DeploymentSettings:
    """How a stage shifts traffic to a new version, and whether versions start from a snapshot."""

    config_name: str = DEFAULT_CONFIG
    snap_start: bool = False

    def __post_init__(self) -> None:
        if self.config_name not in PREDEFINED:
            raise ValueError(
                f"tatami.deployments: {self.config_name!r} is not a CodeDeploy Lambda configuration; "
                f"use one of {', '.join(sorted(PREDEFINED))}"
            )

    @classmethod
    def from_context(cls, settings: Mapping[str, Any] | None, stage: str | None) -> DeploymentSettings:
        """The stage's entry of `deployments` (or its `default`), and `snapStart`.

        >>> DeploymentSettings.from_context({"deployments": {"dev": "AllAtOnce"}}, "dev").config_name
        'AllAtOnce'
        """
        settings = settings or {}
        per_stage = settings.get("deployments") or {}
        name = per_stage.get(stage or DEFAULT_STAGE, per_stage.get(DEFAULT_STAGE, DEFAULT_CONFIG))
        return cls(config_name=str(name), snap_start=bool(settings.get("snapStart", False)))

    @property
    def config(self) -> codedeploy.ILambdaDeploymentConfig:
        return PREDEFINED[self.config_name]


class SafeDeployments(Construct):
    """The stack's CodeDeploy application and the role its deployment groups share (one per stack)."""

    ID = "Deployments"

    def __init__(self, scope: Construct, construct_id: str, *, settings: DeploymentSettings) -> None:
        super().__init__(scope, construct_id)
        self.settings = settings
        self.application = codedeploy.LambdaApplication(self, "Application")
        self.role = iam.Role(
            self,
            "Role",
            assumed_by=iam.ServicePrincipal("codedeploy.amazonaws.com"),
            managed_policies=[iam.ManagedPolicy.from_aws_managed_policy_name(_CODEDEPLOY_FOR_LAMBDA)],
        )
        acknowledge(
            self.role,
            "AwsSolutions-IAM4",
            "AWS's policy for CodeDeploy on Lambda: read the alarms, move aliases, publish to "
            "CodeDeployTopic_* topics; the Limited variant invokes no hook functions.",
            f"Policy::arn:<AWS::Partition>:iam::aws:policy/{_CODEDEPLOY_FOR_LAMBDA}",
        )

    @classmethod
    def of(cls, scope: Construct) -> SafeDeployments:
        """The stack's instance, made from its context (`tatami`, `stage`) when first asked for."""
        stack = Stack.of(scope)
        found = stack.node.try_find_child(cls.ID)
        if isinstance(found, SafeDeployments):
            return found
        settings = DeploymentSettings.from_context(
            stack.node.try_get_context("tatami"), stack.node.try_get_context("stage")
        )
        return cls(stack, cls.ID, settings=settings)


def live_alias(function: lambda_.Function) -> lambda_.Alias:
    """The alias `live` of `function` with its deployment group, made once (API routes and stream
    mappings of one function share it)."""
    found = function.node.try_find_child("Live")
    if isinstance(found, lambda_.Alias):
        return found
    if not isinstance(function, ServiceFunction):
        raise TypeError(
            f"{function.node.path}: only a ServiceFunction knows the service whose alarm rolls it back"
        )
    deployments = SafeDeployments.of(function)
    if deployments.settings.snap_start:
        resource = function.node.default_child
        assert isinstance(resource, lambda_.CfnFunction)
        resource.snap_start = lambda_.CfnFunction.SnapStartProperty(apply_on="PublishedVersions")
    alias = lambda_.Alias(function, "Live", alias_name=ALIAS_NAME, version=function.current_version)
    critical = constants.critical_alarm_name(Stack.of(function).stack_name, function.service)
    codedeploy.LambdaDeploymentGroup(
        function,
        "Deployment",
        application=deployments.application,
        alias=alias,
        deployment_config=deployments.settings.config,
        role=deployments.role,
        alarms=[cloudwatch.Alarm.from_alarm_name(function, "Critical", critical)],
        # Without the alarm's state (not yet created, or not readable) a deployment stops: never
        # shift traffic blind.
        ignore_poll_alarms_failure=False,
        auto_rollback=codedeploy.AutoRollbackConfig(
            failed_deployment=True, stopped_deployment=True, deployment_in_alarm=True
        ),
    )
    return alias
