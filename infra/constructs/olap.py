"""OLAP export (seed 004): DynamoDB is for OLTP; analytics read a point-in-time export in S3.

`OlapExport` takes the tables to export (by key, see tatami_functions.olap.tables; the stack gives it
every table with point-in-time recovery, found by olap_tables.py) and builds the export
bucket (private, TLS only, encrypted, access-logged; exports move to Infrequent Access after 30 days
and Glacier Instant Retrieval after 90), the export function on an hourly schedule (it starts a
full export a day and publishes finished ones to Glue; `tatami export` runs it on demand), and the
Athena catalog (olap_catalog.py). Every exported table must have point-in-time recovery.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta

import jsii
from aws_cdk import Aws, CfnOutput, Duration, Stack
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_events as events
from aws_cdk import aws_events_targets as targets
from aws_cdk import aws_iam as iam
from aws_cdk import aws_s3 as s3
from constructs import Construct, IValidation

from infra.constructs.buckets import private_bucket
from infra.constructs.olap_catalog import RESULTS_PREFIX, OlapCatalog
from infra.constructs.olap_tables import has_point_in_time_recovery, key_definitions
from infra.constructs.service_function import ServiceFunction
from infra.constructs.shared import Shared
from infra.nag import acknowledge, arn_of
from tatami_functions import stack_outputs
from tatami_functions.olap.layout import table_prefix
from tatami_functions.olap.settings import DEFAULT_PREFIX, ExportSettings
from tatami_functions.olap.tables import exported_table

CHECK_EVERY = Duration.hours(1)
FULL_EVERY = Duration.days(1)
KEEP_EXPORTS = Duration.days(365)


@dataclass(frozen=True, slots=True)
class OlapSettings:
    """How often the schedule looks (`check_every`), exports fully and incrementally, and keeps exports."""

    check_every: Duration = CHECK_EVERY
    full_every: Duration = FULL_EVERY
    incremental_every: Duration | None = None  # e.g. Duration.hours(1): the changes since the last export
    keep_exports: Duration | None = KEEP_EXPORTS

    def __post_init__(self) -> None:
        if self.full_every.to_hours() < self.check_every.to_hours():
            raise ValueError("full_every must be at least check_every (the schedule looks every check_every)")
        if self.incremental_every is not None and not 0.25 <= self.incremental_every.to_hours() <= 24:
            raise ValueError("incremental_every must be within 15 minutes..24 hours (DynamoDB's window)")


class OlapExport(Construct):
    """Export `tables` (key -> table) to S3 for Athena; `bucket`, `function`, `catalog` and `rule`."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        shared: Shared,
        *,
        tables: Mapping[str, dynamodb.TableV2],
        settings: OlapSettings | None = None,
    ) -> None:
        super().__init__(scope, construct_id)
        settings = settings or OlapSettings()
        self.tables = dict(tables)
        self.exported = {key: exported_table(key, key_definitions(table)) for key, table in tables.items()}
        self.node.add_validation(_NeedsPointInTimeRecovery(self.tables))
        self.bucket = self._bucket(settings)
        prefixes = {key: table_prefix(DEFAULT_PREFIX, key) for key in tables}
        self.catalog = OlapCatalog(
            self, "Catalog", bucket=self.bucket, tables=prefixes, exported=self.exported
        )
        self.function = self._function(shared, settings)
        self._grant()
        self.rule = events.Rule(
            self,
            "ExportSchedule",
            schedule=events.Schedule.rate(settings.check_every),
            description="tatami: start due DynamoDB exports, publish finished ones to Glue",
            targets=[
                targets.LambdaFunction(self.function, retry_attempts=2, max_event_age=Duration.hours(1))
            ],
        )
        self._outputs()

    def _bucket(self, settings: OlapSettings) -> s3.Bucket:
        logs = private_bucket(
            self, "AccessLogs", lifecycle_rules=[s3.LifecycleRule(expiration=Duration.days(90))]
        )
        to_cheaper = [
            s3.Transition(
                storage_class=s3.StorageClass.INFREQUENT_ACCESS, transition_after=Duration.days(30)
            ),
            s3.Transition(
                storage_class=s3.StorageClass.GLACIER_INSTANT_RETRIEVAL, transition_after=Duration.days(90)
            ),
        ]
        return private_bucket(
            self,
            "Bucket",
            server_access_logs_bucket=logs,
            server_access_logs_prefix="olap/",
            lifecycle_rules=[
                s3.LifecycleRule(abort_incomplete_multipart_upload_after=Duration.days(1)),
                s3.LifecycleRule(
                    prefix=f"{DEFAULT_PREFIX}/", transitions=to_cheaper, expiration=settings.keep_exports
                ),
                s3.LifecycleRule(prefix=RESULTS_PREFIX, expiration=Duration.days(30)),
            ],
        )

    def _function(self, shared: Shared, settings: OlapSettings) -> ServiceFunction:
        return ServiceFunction(
            self,
            "ExportFunction",
            layers=shared.layers,
            service="olap",
            handler="tatami_functions.olap.handler.handler",
            # A run only calls the export API in AWS; on the local cloud it scans into the local S3.
            timeout=Duration.minutes(5),
            environment=ExportSettings.environment(
                # The ARNs are tokens: the stack writes the JSON (the declaration reads it back).
                tables=Stack.of(self).to_json_string({k: t.table_arn for k, t in self.tables.items()}),
                bucket=self.bucket.bucket_name,
                prefix=DEFAULT_PREFIX,
                database=self.catalog.database_name,
                full_every=_interval(settings.full_every),
                incremental_every=_interval(settings.incremental_every),  # None: no incremental runs
            ),
            description="tatami OLAP: starts DynamoDB exports to S3 and points Glue at the newest",
        )

    def _grant(self) -> None:
        # On the tables themselves only: `table.grant` would add their indexes, which exports never read.
        arns = [table.table_arn for table in self.tables.values()]
        iam.Grant.add_to_principal(
            grantee=self.function, actions=["dynamodb:ExportTableToPointInTime"], resource_arns=arns
        )
        exports = [f"{table.table_arn}/export/*" for table in self.tables.values()]
        self.function.add_to_role_policy(
            iam.PolicyStatement(actions=["dynamodb:DescribeExport"], resources=exports)
        )
        # Which exports exist is read from the export folders (ListExports allows no resource scoping).
        self.function.add_to_role_policy(
            iam.PolicyStatement(
                actions=["s3:ListBucket"],
                resources=[self.bucket.bucket_arn],
                conditions={"StringLike": {"s3:prefix": [f"{DEFAULT_PREFIX}/*"]}},
            )
        )
        # DynamoDB writes the export with the caller's permissions on the bucket: these three, as the
        # export guide lists them (no tagging, object lock or version ACLs).
        export_writes = ["s3:AbortMultipartUpload", "s3:PutObject", "s3:PutObjectAcl"]
        iam.Grant.add_to_principal(
            grantee=self.function,
            actions=export_writes,
            resource_arns=[self.bucket.arn_for_objects(f"{DEFAULT_PREFIX}/*")],
        )
        glue_arn = f"arn:{Aws.PARTITION}:glue:{Aws.REGION}:{Aws.ACCOUNT_ID}"
        database = self.catalog.database_name
        glue_resources = [f"{glue_arn}:catalog", f"{glue_arn}:database/{database}"] + [
            f"{glue_arn}:table/{database}/{name}" for name in self.catalog.table_names.values()
        ]
        self.function.add_to_role_policy(
            iam.PolicyStatement(actions=["glue:GetTable", "glue:UpdateTable"], resources=glue_resources)
        )
        self._acknowledge_wildcards()

    def _acknowledge_wildcards(self) -> None:
        acknowledge(
            self.function,
            "AwsSolutions-IAM5",
            "Export ARNs are generated per export (<table ARN>/export/<id>): DescribeExport is granted on "
            "the exports of the exported tables only.",
            *(arn_of(table, "/export/*") for table in self.tables.values()),
        )
        acknowledge(
            self.function,
            "AwsSolutions-IAM5",
            "DynamoDB writes exports with the caller's S3 permissions: object writes are scoped to the "
            "exports/ prefix of the OLAP bucket (export ids are chosen by DynamoDB).",
            arn_of(self.bucket, f"/{DEFAULT_PREFIX}/*"),
        )

    def _outputs(self) -> None:
        stack = Stack.of(self)
        tables = stack.to_json_string({key: table.table_arn for key, table in self.tables.items()})
        CfnOutput(stack, stack_outputs.OUTPUT_OLAP_BUCKET, value=self.bucket.bucket_name)
        CfnOutput(
            stack, stack_outputs.OUTPUT_OLAP_TABLES, value=tables, description="exported tables: key -> ARN"
        )
        CfnOutput(stack, stack_outputs.OUTPUT_OLAP_DATABASE, value=self.catalog.database_name)
        CfnOutput(stack, stack_outputs.OUTPUT_OLAP_WORKGROUP, value=self.catalog.work_group_name)


@jsii.implements(IValidation)
class _NeedsPointInTimeRecovery:
    """Synthesis fails naming any exported table without point-in-time recovery (exports need it)."""

    def __init__(self, tables: Mapping[str, dynamodb.TableV2]) -> None:
        self.tables = tables

    def validate(self) -> list[str]:
        return [
            f"OlapExport: table {key!r} has no point-in-time recovery; ExportTableToPointInTime needs it"
            for key, table in self.tables.items()
            if not has_point_in_time_recovery(table)
        ]


def _interval(duration: Duration | None) -> timedelta | None:
    return timedelta(seconds=duration.to_seconds()) if duration is not None else None
