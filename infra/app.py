"""Builds the CDK app (app.py synthesizes it; the tests build the same app in-process)."""

from __future__ import annotations

import aws_cdk as cdk
from cdk_nag import AwsSolutionsChecks

from infra import constants
from infra.stacks.tatami_stack import StackSettings, TatamiStack


def create_app(outdir: str | None = None) -> cdk.App:
    """The app with its one stack and cdk-nag's AwsSolutions checks; env-agnostic, no lookups."""
    app = cdk.App(outdir=outdir)
    settings = StackSettings.from_context(app.node.try_get_context("tatami"))
    TatamiStack(
        app,
        constants.STACK_NAME,
        settings=settings,
        description="tatami: DynamoDB patterns (Z-order search, IP lookup, counters, data models, OLAP)",
    )
    cdk.Aspects.of(app).add(AwsSolutionsChecks(verbose=True))
    return app
