"""TableExport: DynamoDB tables exported on a schedule to S3 and catalogued for Athena (seed 004: DynamoDB
is for OLTP; analytics read a point-in-time export).

It brings the export bucket unless given one (private, TLS only, encrypted, access-logged; exports move
to Infrequent Access after 30 days and Glacier Instant Retrieval after 90), the export function
(`tatami_functions.olap.handler`: it starts a full export per `full_every`, incremental ones if asked,
and publishes finished ones to Glue) on its schedule with a dead-letter queue, and the catalog
(`ExportCatalog`). Every exported table must have point-in-time recovery: synthesis fails naming one
without it. It stands alone: its function code and layers come with it (`PatternFunctions`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import timedelta
from typing import Any

from aws_cdk import Aws, Duration, Stack
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_events as events
from aws_cdk import aws_events_targets as targets
from aws_cdk import aws_iam as iam
from aws_cdk import aws_s3 as s3
from constructs import Construct

from infra.constructs.buckets import private_bucket
from infra.constructs.monitoring_targets import CountsExportFailures
from infra.constructs.pattern_functions import PatternFunctions
from infra.constructs.service_function import ServiceFunction
from infra.constructs.stream_consumer import stream_failure_queue
from infra.nag import acknowledge, arn_of
from infra.patterns.export_catalog import RESULTS_PREFIX, ExportCatalog
from infra.patterns.export_settings import ExportSchedule, NeedsPointInTimeRecovery, key_definitions
from tatami_functions.olap.catalog import NamedQuery
from tatami_functions.olap.layout import table_prefix
from tatami_functions.olap.settings import DEFAULT_PREFIX, ExportSettings
from tatami_functions.olap.tables import exported_table, table_key

__all__ = ["TableExport"]

EXPORT_WRITES = ["s3:AbortMultipartUpload", "s3:PutObject", "s3:PutObjectAcl"]


class TableExport(Construct, CountsExportFailures):
    """Export `tables` to S3 on `schedule` and catalogue them for Athena (see docs/patterns.md).

    ``tables``: key -> table, or tables keyed by their construct ids in snake case (``Listings`` ->
    ``listings``: the Glue table ``raw_listings``). Attributes: ``bucket``, ``function``, ``rule``,
    ``schedule_failures``, ``catalog`` (``database_name``, ``work_group_name``, ``table_names``).
    ``grant_read(grantee)`` reads the exports.
    """

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        tables: Mapping[str, dynamodb.TableV2] | Sequence[dynamodb.TableV2],
        bucket: s3.IBucket | None = None,
        schedule: ExportSchedule | None = None,
        functions: PatternFunctions | None = None,
        catalog_name: str = "exports",
        queries: Iterable[NamedQuery] = (),
    ) -> None:
        super().__init__(scope, construct_id)
        schedule, functions = schedule or ExportSchedule(), functions or PatternFunctions()
        self.tables = dict(tables) if isinstance(tables, Mapping) else _keyed(tables)
        self.exported = {key: exported_table(key, key_definitions(t)) for key, t in self.tables.items()}
        self.node.add_validation(NeedsPointInTimeRecovery(self.tables))
        self.bucket = bucket or self._bucket(schedule)
        self.catalog = ExportCatalog(
            self,
            "Catalog",
            bucket=self.bucket,
            tables={key: table_prefix(DEFAULT_PREFIX, key) for key in self.tables},
            exported=self.exported,
            name=catalog_name,
            queries=queries,
        )
        self.service = functions.service_or("olap")
        self.function = self._function(functions, schedule)
        self.export_stale_after = schedule.export_stale_after  # monitoring's heartbeat (CountsExportFailures)
        self._grant()
        # Where EventBridge puts a run it could not start (monitoring alarms on it, and on the rule).
        self.schedule_failures = stream_failure_queue(self, "ScheduleFailures", consumer="export schedule")
        self.rule = self._schedule(schedule)

    def grant_read(self, grantee: iam.IGrantable) -> iam.Grant:
        """Read the exports (their manifests and data files), e.g. for a job of yours that loads them."""
        return self.bucket.grant_read(grantee, f"{DEFAULT_PREFIX}/*")

    def _bucket(self, schedule: ExportSchedule) -> s3.Bucket:
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
                    prefix=f"{DEFAULT_PREFIX}/", transitions=to_cheaper, expiration=schedule.keep_exports
                ),
                s3.LifecycleRule(prefix=RESULTS_PREFIX, expiration=Duration.days(30)),
            ],
        )

    def _function(self, functions: PatternFunctions, schedule: ExportSchedule) -> ServiceFunction:
        return ServiceFunction(
            self,
            "ExportFunction",
            layers=functions.layers_in(self),
            service=self.service,
            handler="tatami_functions.olap.handler.handler",
            # A run only calls the export API in AWS; on the local cloud it scans into the local S3.
            timeout=Duration.minutes(5),
            environment=ExportSettings.environment(
                # The ARNs are tokens: the stack writes the JSON (the declaration reads it back).
                tables=Stack.of(self).to_json_string({k: t.table_arn for k, t in self.tables.items()}),
                bucket=self.bucket.bucket_name,
                prefix=DEFAULT_PREFIX,
                database=self.catalog.database_name,
                full_every=_interval(schedule.full_every),
                incremental_every=_interval(schedule.incremental_every),  # None: no incremental runs
                check_every=_interval(schedule.check_every),
            ),
            description="tatami OLAP: starts DynamoDB exports to S3 and points Glue at the newest",
        )

    def _schedule(self, schedule: ExportSchedule) -> events.Rule:
        # The rule invokes the function itself, never a `live` alias: a missed run is retried and the
        # next one catches up, so safe deployments (PatternFunctions) do not apply here.
        target = targets.LambdaFunction(
            self.function,
            retry_attempts=2,
            max_event_age=Duration.hours(1),
            dead_letter_queue=self.schedule_failures,
        )
        return events.Rule(
            self,
            "ExportSchedule",
            schedule=events.Schedule.rate(schedule.check_every),
            description="tatami: start due DynamoDB exports, publish finished ones to Glue",
            targets=[target],
        )

    def _grant(self) -> None:
        # On the tables themselves only: `table.grant` would add their indexes, which exports never read.
        arns = [table.table_arn for table in self.tables.values()]
        iam.Grant.add_to_principal(
            grantee=self.function, actions=["dynamodb:ExportTableToPointInTime"], resource_arns=arns
        )
        exports = [f"{arn}/export/*" for arn in arns]
        self._allow(["dynamodb:DescribeExport"], exports)
        # Which exports exist is read from the export folders (ListExports allows no resource scoping).
        listing = {"StringLike": {"s3:prefix": [f"{DEFAULT_PREFIX}/*"]}}
        self._allow(["s3:ListBucket"], [self.bucket.bucket_arn], listing)
        # DynamoDB writes the export with the caller's permissions on the bucket: these three, as the
        # export guide lists them (no tagging, object lock or version ACLs).
        iam.Grant.add_to_principal(
            grantee=self.function,
            actions=EXPORT_WRITES,
            resource_arns=[self.bucket.arn_for_objects(f"{DEFAULT_PREFIX}/*")],
        )
        glue_arn = f"arn:{Aws.PARTITION}:glue:{Aws.REGION}:{Aws.ACCOUNT_ID}"
        database = self.catalog.database_name
        glue_resources = [f"{glue_arn}:catalog", f"{glue_arn}:database/{database}"] + [
            f"{glue_arn}:table/{database}/{name}" for name in self.catalog.table_names.values()
        ]
        self._allow(["glue:GetTable", "glue:UpdateTable"], glue_resources)
        self._acknowledge_wildcards()

    def _allow(
        self, actions: list[str], resources: list[str], conditions: dict[str, Any] | None = None
    ) -> None:
        statement = iam.PolicyStatement(actions=actions, resources=resources, conditions=conditions)
        self.function.add_to_role_policy(statement)

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
            "exports/ prefix of the export bucket (export ids are chosen by DynamoDB).",
            arn_of(self.bucket, f"/{DEFAULT_PREFIX}/*"),
        )


def _keyed(tables: Sequence[dynamodb.TableV2]) -> dict[str, dynamodb.TableV2]:
    """Tables by their construct ids in snake case, as the Glue tables and export folders name them."""
    return {table_key(table.node.id): table for table in tables}


def _interval(duration: Duration | None) -> timedelta | None:
    return timedelta(seconds=duration.to_seconds()) if duration is not None else None
