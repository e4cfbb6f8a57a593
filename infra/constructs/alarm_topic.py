"""The one SNS topic every alarm notifies (on ALARM and on OK), with an optional email subscription.

Encrypted with a key of its own: CloudWatch cannot publish to a topic under the AWS-managed SNS key,
so the key and the topic let the CloudWatch service publish for this account's alarms named
`<prefix>-*` only (aws:SourceAccount / aws:SourceArn, against the confused deputy), and the topic
refuses anything but TLS.
"""

from __future__ import annotations

from aws_cdk import Aws, RemovalPolicy
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_sns as sns
from aws_cdk import aws_sns_subscriptions as subscriptions
from constructs import Construct

_CLOUDWATCH = iam.ServicePrincipal("cloudwatch.amazonaws.com")


class AlarmTopic(Construct):
    """`topic` for the alarms named `alarm_prefix`-*; `email` (if any) subscribes to it."""

    def __init__(self, scope: Construct, construct_id: str, *, alarm_prefix: str, email: str | None) -> None:
        super().__init__(scope, construct_id)
        self.key = kms.Key(
            self,
            "Key",
            enable_key_rotation=True,
            removal_policy=RemovalPolicy.DESTROY,  # it only encrypts notifications in flight
            description=f"Encrypts the {alarm_prefix} alarm notifications",
        )
        self.topic = sns.Topic(
            self, "Topic", master_key=self.key, enforce_ssl=True, display_name=f"{alarm_prefix} alarms"
        )
        conditions = {
            "StringEquals": {"aws:SourceAccount": Aws.ACCOUNT_ID},
            "ArnLike": {
                "aws:SourceArn": f"arn:{Aws.PARTITION}:cloudwatch:{Aws.REGION}:{Aws.ACCOUNT_ID}:alarm:"
                f"{alarm_prefix}-*"
            },
        }
        self.key.add_to_resource_policy(
            iam.PolicyStatement(
                principals=[_CLOUDWATCH],
                actions=["kms:Decrypt", "kms:GenerateDataKey*"],
                resources=["*"],  # in a key policy, "*" is this key
                conditions=conditions,
            )
        )
        self.topic.add_to_resource_policy(
            iam.PolicyStatement(
                principals=[_CLOUDWATCH],
                actions=["sns:Publish"],
                resources=[self.topic.topic_arn],
                conditions=conditions,
            )
        )
        if email:
            self.topic.add_subscription(subscriptions.EmailSubscription(email))
