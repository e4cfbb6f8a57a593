"""The device logs' TTL archiver: stream deletions by TTL into the workshop bucket's `archive/`."""

from __future__ import annotations

from aws_cdk import Duration
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_s3 as s3
from constructs import Construct

from infra.constructs.buckets import grant_objects
from infra.constructs.service_function import ServiceFunction
from infra.constructs.shared import Shared
from infra.constructs.stream_consumer import stream_failure_queue, subscribe_to_stream
from tatami_functions.devices.settings import ArchiveSettings

ARCHIVE_PREFIX = "archive/device-logs/"


class LogArchiver(Construct):
    """A stream function that writes device logs deleted by TTL (and only those) to the bucket, in the
    stream consumers' one shape (`subscribe_to_stream`: partial batch failures, bisection, a DLQ)."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        shared: Shared,
        table: dynamodb.TableV2,
        bucket: s3.IBucket,
    ) -> None:
        super().__init__(scope, construct_id)
        self.failures = stream_failure_queue(self, "Failures", consumer="TTL archiver")
        self.function = ServiceFunction(
            self,
            "Function",
            layers=shared.layers,
            service="models-devices",
            handler="tatami_functions.devices.handler.archive",
            packages=["devices"],
            environment=ArchiveSettings.environment(bucket=bucket.bucket_name),
            timeout=Duration.seconds(60),
            description="Archives device logs deleted by TTL to S3 (gzipped JSON lines)",
        )
        grant_objects(self.function, bucket, f"{ARCHIVE_PREFIX}*", "s3:PutObject")
        subscribe_to_stream(
            self.function,
            table,
            self.failures,
            batch_size=500,
            batching_window=Duration.seconds(30),  # fewer, larger archive objects
            retry_attempts=5,
            max_record_age=Duration.hours(23),  # streams keep records 24 hours
            filters=[lambda_.FilterCriteria.filter(TTL_DELETIONS)],
        )


# A REMOVE by the DynamoDB service is a TTL deletion; a user's DeleteItem carries no userIdentity.
TTL_DELETIONS = {
    "eventName": lambda_.FilterRule.is_equal("REMOVE"),
    "userIdentity": {
        "type": lambda_.FilterRule.is_equal("Service"),
        "principalId": lambda_.FilterRule.is_equal("dynamodb.amazonaws.com"),
    },
}
