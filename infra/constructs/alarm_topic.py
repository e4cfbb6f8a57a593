"""Where alarms go: a Critical topic (pages) and a Warning topic, and who each one tells.

Both topics are encrypted with one key of their own: CloudWatch cannot publish to a topic under the
AWS-managed SNS key, so the key and the topics let the CloudWatch service publish for this account's
alarms named `<prefix>-*` only (aws:SourceAccount / aws:SourceArn, against the confused deputy), and
the topics refuse anything but TLS. Who is told is `AlarmDestinations` (cdk.json): e-mail addresses
and HTTPS endpoints (an incident tool's SNS integration) subscribe to a topic; an SNS topic ARN (a
topic of the operator's, e.g. one AWS Chatbot reads) is notified by the alarms themselves.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from aws_cdk import Aws, RemovalPolicy
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_sns as sns
from aws_cdk import aws_sns_subscriptions as subscriptions
from constructs import Construct

_CLOUDWATCH = iam.ServicePrincipal("cloudwatch.amazonaws.com")
_TOPIC_ARN = re.compile(r"arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]+")
URGENCIES = ("critical", "warning")


@dataclass(frozen=True)
class AlarmDestinations:
    """Who is told of Critical and of Warning alarms: each an e-mail address, an https:// endpoint or
    an SNS topic ARN. From cdk.json's `tatami` context: `alarmEmail` (told of both) and
    `alarmDestinations` (`{"critical": [...], "warning": [...]}`).

    >>> AlarmDestinations.from_context({"alarmEmail": "ops@example.com"}).warning
    ('ops@example.com',)
    """

    critical: tuple[str, ...] = ()
    warning: tuple[str, ...] = ()

    @classmethod
    def from_context(cls, context: Mapping[str, Any] | None) -> AlarmDestinations:
        context = context or {}
        email = str(context.get("alarmEmail") or "").strip()
        per_urgency = context.get("alarmDestinations") or {}
        unknown = set(per_urgency) - set(URGENCIES)
        if unknown:
            raise ValueError(f"alarmDestinations in cdk.json: {sorted(unknown)}; use critical and warning")
        found = {
            urgency: tuple(
                _checked(str(d).strip()) for d in [email, *per_urgency.get(urgency, [])] if str(d).strip()
            )
            for urgency in URGENCIES
        }
        return cls(critical=found["critical"], warning=found["warning"])

    def __bool__(self) -> bool:
        return bool(self.critical or self.warning)


def _checked(destination: str) -> str:
    if destination.startswith("https://") or _TOPIC_ARN.fullmatch(destination):
        return destination
    if re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s]+", destination):
        return destination
    raise ValueError(
        f"alarm destination {destination!r} in cdk.json (alarmEmail, alarmDestinations) is neither an "
        "e-mail address, an https:// endpoint nor an SNS topic ARN"
    )


class AlarmTopics(Construct):
    """`critical` and `warning` topics for the alarms named `alarm_prefix`-*; `notified(urgency)`: the
    topics an alarm of that urgency notifies (its own, then the operator's)."""

    def __init__(
        self, scope: Construct, construct_id: str, *, alarm_prefix: str, destinations: AlarmDestinations
    ) -> None:
        super().__init__(scope, construct_id)
        self.alarm_prefix = alarm_prefix
        self.key = kms.Key(
            self,
            "Key",
            enable_key_rotation=True,
            removal_policy=RemovalPolicy.DESTROY,  # it only encrypts notifications in flight
            description=f"Encrypts the {alarm_prefix} alarm notifications",
        )
        self.key.add_to_resource_policy(
            iam.PolicyStatement(
                principals=[_CLOUDWATCH],
                actions=["kms:Decrypt", "kms:GenerateDataKey*"],
                resources=["*"],  # in a key policy, "*" is this key
                conditions=self._conditions(),
            )
        )
        # "Topic": the id of the one topic before Warnings were routed apart, so its subscribers stay.
        self.critical = self._topic("Topic", "Critical", destinations.critical)
        self.warning = self._topic("WarningTopic", "Warning", destinations.warning)
        self._notified = {
            urgency: [own]
            + [
                sns.Topic.from_topic_arn(self, f"{urgency}-{n}", arn)
                for n, arn in enumerate(d for d in getattr(destinations, urgency) if d.startswith("arn:"))
            ]
            for urgency, own in (("critical", self.critical), ("warning", self.warning))
        }

    def notified(self, urgency: str) -> list[sns.ITopic]:
        """The topics an alarm of `urgency` (critical, warning) notifies on ALARM and on OK."""
        return list(self._notified[urgency])

    def _topic(self, construct_id: str, urgency: str, destinations: Sequence[str]) -> sns.Topic:
        topic = sns.Topic(
            self,
            construct_id,
            master_key=self.key,
            enforce_ssl=True,
            display_name=f"{self.alarm_prefix} {urgency} alarms",
        )
        topic.add_to_resource_policy(
            iam.PolicyStatement(
                principals=[_CLOUDWATCH],
                actions=["sns:Publish"],
                resources=[topic.topic_arn],
                conditions=self._conditions(),
            )
        )
        for destination in destinations:
            if destination.startswith("https://"):
                topic.add_subscription(subscriptions.UrlSubscription(destination))
            elif not destination.startswith("arn:"):
                topic.add_subscription(subscriptions.EmailSubscription(destination))
        return topic

    def _conditions(self) -> dict[str, Any]:
        return {
            "StringEquals": {"aws:SourceAccount": Aws.ACCOUNT_ID},
            "ArnLike": {
                "aws:SourceArn": f"arn:{Aws.PARTITION}:cloudwatch:{Aws.REGION}:{Aws.ACCOUNT_ID}:alarm:"
                f"{self.alarm_prefix}-*"
            },
        }
