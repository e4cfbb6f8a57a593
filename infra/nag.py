"""cdk-nag (3.x) on the app, and the one way the constructs acknowledge one of its rules.

cdk-nag 3 is a CDK validation plugin (`Validations.of(app).add_plugins(...)`): an unacknowledged
finding fails synthesis and is written to `cdk.out/validation-report.json`. A construct acknowledges
a rule for itself and its children with `acknowledge(construct, rule, reason, *findings)`; a rule
that reports several findings on one resource (IAM4, IAM5) is acknowledged finding by finding
(`AwsSolutions-IAM5[Resource::<Bucket.Arn>/exports/*]`), so each wildcard is named and explained.

For example (not run as a doctest)::

    acknowledge(queue, "AwsSolutions-SQS3", "the stream consumer's on-failure queue")
"""

from __future__ import annotations

from aws_cdk import Acknowledgment, App, CfnElement, Stack, Validations
from cdk_nag import AwsSolutionsChecks
from constructs import IConstruct

__all__ = ["acknowledge", "arn_of", "check_app"]

PACK = "AwsSolutions"  # acknowledgments name the plugin, as cdk-nag's messages print them


def check_app(app: App) -> None:
    """Run cdk-nag's AwsSolutions rules on every stack of `app` when it synthesizes."""
    Validations.of(app).add_plugins(AwsSolutionsChecks(app, verbose=True))


def acknowledge(construct: IConstruct, rule: str, reason: str, *findings: str) -> None:
    """Acknowledge `rule` on `construct` and its children with `reason`; with `findings`, only those
    findings of the rule (as cdk-nag names them: "Resource::*", "Policy::arn:...")."""
    ids = [f"{PACK}::{rule}[{finding}]" for finding in findings] or [f"{PACK}::{rule}"]
    Validations.of(construct).acknowledge(*(Acknowledgment(id=id_, reason=reason) for id_ in ids))


def arn_of(resource: IConstruct, suffix: str = "") -> str:
    """How cdk-nag writes `resource`'s ARN in a finding: `Resource::<LogicalId.Arn>` plus `suffix`."""
    element = resource.node.default_child
    assert isinstance(element, CfnElement), f"{resource.node.path} has no CloudFormation resource"
    return f"Resource::<{Stack.of(resource).get_logical_id(element)}.Arn>{suffix}"
