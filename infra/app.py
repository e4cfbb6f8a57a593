"""Builds the CDK app (app.py synthesizes it; the tests build the same app in-process)."""

from __future__ import annotations

import json
from typing import Any

import aws_cdk as cdk

from infra.nag import check_app
from infra.paths import REPO_ROOT
from infra.stacks.monitoring_stack import MonitoringSettings, MonitoringStack, monitoring_stack_name
from infra.stacks.tatami_stack import StackSettings, TatamiStack
from tatami_functions import stack_outputs


def cdk_json_context() -> dict[str, Any]:
    """cdk.json's context (feature flags, settings). Only the CDK CLI reads cdk.json; loading it here
    makes `python app.py`, the local cloud and the tests synthesize exactly what `cdk deploy` does."""
    context: dict[str, Any] = json.loads((REPO_ROOT / "cdk.json").read_text())["context"]
    return context


def create_app(outdir: str | None = None, context: dict[str, Any] | None = None) -> cdk.App:
    """The app with its stack, the stack monitoring it and cdk-nag's AwsSolutions checks;
    env-agnostic, no lookups.

    The context key `stage` (`npx cdk deploy -c stage=dev`, or cdk.json) names the stacks
    (`stack_outputs.stack_name`); a stage that is not a developer's must have an alarm destination
    (`MonitoringSettings`). `context` adds to cdk.json's (tests).
    """
    app = cdk.App(outdir=outdir, context={**cdk_json_context(), **(context or {})})
    settings, stage = app.node.try_get_context("tatami"), app.node.try_get_context("stage")
    name = stack_outputs.stack_name(stage)  # first, as the monitoring settings: each may refuse the stage
    monitoring = MonitoringSettings.from_context(settings, stage)
    stack = TatamiStack(
        app,
        name,
        settings=StackSettings.from_context(settings),
        description="tatami: DynamoDB patterns (Z-order search, IP lookup, counters, data models, OLAP)",
    )
    MonitoringStack(
        app,
        monitoring_stack_name(stack.stack_name),
        watched=stack,
        settings=monitoring,
        description="tatami: alarms, dashboards and alarm topics of the tatami stack",
    )
    check_app(app)
    return app
