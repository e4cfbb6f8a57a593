"""Seed 004's device logs: the device_logs table (`tatami_functions.devices.table`: three GSIs, TTL, a
stream of old images), the API function on its routes, and the TTL archiver that streams the logs TTL
deleted into the workshop bucket's `archive/`.

The device logs live in the workshop's scope (the stack's "Workshop", shared with carts, documents,
lockers and campaigns and their bucket), where their resources were first deployed: the table is this
construct's "Default" child and the archiver the workshop's "LogArchiver", so both keep the logical IDs
they were deployed with (tests/infra/test_deployed_ids.py).
"""

from __future__ import annotations

from aws_cdk import Duration
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_s3 as s3
from constructs import Construct

from infra.constructs.api_function import ApiFunction
from infra.constructs.buckets import grant_objects
from infra.constructs.service_function import ServiceFunction
from infra.constructs.shared import Shared
from infra.constructs.stream_consumer import stream_failure_queue, subscribe_to_stream
from infra.constructs.table_grants import grant_indexes, grant_table
from tatami_functions import stack_outputs
from tatami_functions.devices.archive import PREFIX as ARCHIVE_PREFIX
from tatami_functions.devices.archive import TTL_PRINCIPAL
from tatami_functions.devices.schemas import DEFAULT_RETENTION_DAYS
from tatami_functions.devices.settings import DEFAULT_SHARDS, ArchiveSettings, DeviceLogsSettings
from tatami_functions.devices.table import DEVICE_LOGS, ESCALATION_INDEX

SERVICE = "devices"


class DevicesService(Construct):
    """The device logs in `workshop` (the stack's workshop scope), archiving to `bucket`; `log_shards`
    is N of the random-shard GSI, `log_retention_days` how long a new log is kept by default.

    For example (not run as a doctest)::

        DevicesService(workshop, "DeviceLogs", shared=shared, bucket=bucket)
    """

    def __init__(
        self,
        workshop: Construct,
        construct_id: str,
        *,
        shared: Shared,
        bucket: s3.IBucket,
        log_shards: int = DEFAULT_SHARDS,
        log_retention_days: int = DEFAULT_RETENTION_DAYS,
    ) -> None:
        super().__init__(workshop, construct_id)
        # "Default": the table keeps the logical ID it had as the workshop's "DeviceLogs".
        self.table = shared.data_table(
            self, "Default", DEVICE_LOGS, output=stack_outputs.OUTPUT_DEVICE_LOGS_TABLE
        )
        self.function = ApiFunction(
            self,
            "Function",
            shared=shared,
            service=SERVICE,
            environment=DeviceLogsSettings.environment(
                table=self.table.table_name, shards=log_shards, retention_days=log_retention_days
            ),
            description="The device logs' REST routes (seed 004)",
        )
        grant_table(self.function, self.table, "PutItem", "UpdateItem", "Query")
        grant_indexes(self.function, self.table, [index.name for index in DEVICE_LOGS.indexes], "Query")
        # every escalation: a Scan of the sparse GSI, which holds nothing else
        grant_indexes(self.function, self.table, [ESCALATION_INDEX.name], "Scan")
        # In the workshop's scope: its failure queue keeps the logical ID it was deployed with.
        self.archiver = LogArchiver(workshop, "LogArchiver", shared=shared, table=self.table, bucket=bucket)


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
            service=SERVICE,
            handler="tatami_functions.devices.handler.archive",
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
        "principalId": lambda_.FilterRule.is_equal(TTL_PRINCIPAL),
    },
}
