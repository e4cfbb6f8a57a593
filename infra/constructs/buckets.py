"""Private buckets, and the workshop bucket seed 004's documents and device logs share.

The workshop bucket holds large document bodies (`documents/`) and device logs deleted by TTL
(`archive/`): private, TLS-only, encrypted, versioned (a deleted body stays recoverable for 30 days)
and access-logged to a second bucket.
"""

from __future__ import annotations

from typing import Any

from aws_cdk import Duration
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_s3 as s3
from constructs import Construct

from infra.nag import acknowledge, arn_of


def private_bucket(scope: Construct, construct_id: str, **props: Any) -> s3.Bucket:
    """A bucket nobody reaches without IAM and TLS, encrypted at rest."""
    return s3.Bucket(
        scope,
        construct_id,
        block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
        encryption=s3.BucketEncryption.S3_MANAGED,
        enforce_ssl=True,
        **props,
    )


def grant_objects(function: lambda_.Function, bucket: s3.IBucket, prefix: str, *actions: str) -> None:
    """Grant exactly `actions` on the objects under `prefix` (CDK's grant_put/grant_read_write add
    tagging, object-lock, Abort*, List* and GetBucket* actions the functions never call)."""
    iam.Grant.add_to_principal(
        grantee=function, actions=list(actions), resource_arns=[bucket.arn_for_objects(prefix)]
    )
    acknowledge(
        function,
        "AwsSolutions-IAM5",
        f"Object keys are chosen at run time: the grant covers the key prefix {prefix} of the bucket only.",
        arn_of(bucket, f"/{prefix}"),
    )


class WorkshopBucket(Construct):
    """The bucket (`.bucket`) and its access-log bucket."""

    def __init__(self, scope: Construct, construct_id: str) -> None:
        super().__init__(scope, construct_id)
        # cdk-nag counts a server-access-log destination as compliant with S1 (logging it would recurse).
        logs = private_bucket(
            self, "AccessLogs", lifecycle_rules=[s3.LifecycleRule(expiration=Duration.days(90))]
        )
        archive_to_glacier = s3.Transition(
            storage_class=s3.StorageClass.GLACIER_INSTANT_RETRIEVAL, transition_after=Duration.days(90)
        )
        self.bucket = private_bucket(
            self,
            "Bucket",
            versioned=True,
            server_access_logs_bucket=logs,
            server_access_logs_prefix="workshop/",
            lifecycle_rules=[
                s3.LifecycleRule(
                    abort_incomplete_multipart_upload_after=Duration.days(1),
                    noncurrent_version_expiration=Duration.days(30),
                ),
                s3.LifecycleRule(prefix="archive/", transitions=[archive_to_glacier]),
            ],
        )
