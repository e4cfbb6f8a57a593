"""The olap service (seed 004: DynamoDB is for OLTP; analytics read a point-in-time export in S3).

`OlapService` takes the tables to export (by key, see tatami_functions.olap.tables; the stack gives
it every table with point-in-time recovery, found by `exportable_tables`) and builds the export
bucket (private, TLS only, encrypted, access-logged; exports move to Infrequent Access after 30 days
and Glacier Instant Retrieval after 90), the export function on an hourly schedule (it starts a
full export a day and publishes finished ones to Glue; `tatami export` runs it on demand), and the
Athena catalog (`OlapCatalog`). Every exported table must have point-in-time recovery.

The Athena side: a Glue database, a table per export, a workgroup and the named queries. Each Glue
table `raw_<key>` reads one full export's data folder (DynamoDB JSON, gzip) through the OpenX JSON
SerDe with one column, `item`, typed from `tatami_functions.olap.tables`; the export function moves
its location to each new full export. The named queries are the files of
lambdas/tatami_functions/olap/queries with the views they use in front
(`tatami_functions.olap.catalog.with_views`), the same text DuckDB runs locally.

Which tables are exported is found in the stack itself, so there is no list to keep: a table's key
is the name of the stack output that names it, in snake case (`OrdersTableName` -> `orders`, see
`tatami_functions.olap.tables.table_key`). A table with point-in-time recovery but no such output
fails synthesis, naming it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import jsii
from aws_cdk import Aws, CfnOutput, Duration, Stack
from aws_cdk import aws_athena as athena
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_events as events
from aws_cdk import aws_events_targets as targets
from aws_cdk import aws_glue as glue
from aws_cdk import aws_iam as iam
from aws_cdk import aws_s3 as s3
from constructs import Construct, IValidation

from infra.constructs.buckets import private_bucket
from infra.constructs.monitoring_targets import CountsExportFailures
from infra.constructs.service_function import ServiceFunction
from infra.constructs.shared import Shared
from infra.constructs.stream_consumer import stream_failure_queue
from infra.nag import acknowledge, arn_of
from tatami_functions import stack_outputs
from tatami_functions.olap.catalog import named_queries, with_views
from tatami_functions.olap.layout import table_prefix
from tatami_functions.olap.settings import DEFAULT_PREFIX, ExportSettings
from tatami_functions.olap.tables import ExportedTable, exported_table, table_key

CHECK_EVERY = Duration.hours(1)
FULL_EVERY = Duration.days(1)
KEEP_EXPORTS = Duration.days(365)
RESULTS_PREFIX = "athena-results/"
SCAN_CUTOFF_BYTES = 10 * 1024**3  # a runaway query stops after 10 GB (Athena bills per TB scanned)
_JSON_SERDE = "org.openx.data.jsonserde.JsonSerDe"


@dataclass(frozen=True, slots=True)
class OlapSettings:
    """How often the schedule looks (`check_every`), exports fully and incrementally, and keeps exports."""

    check_every: Duration = CHECK_EVERY
    full_every: Duration = FULL_EVERY
    incremental_every: Duration | None = None  # e.g. Duration.hours(1): the changes since the last export
    keep_exports: Duration | None = KEEP_EXPORTS
    # No export completed for this long alarms (default: a full export's interval and 6 hours, the time
    # a large table's export may take).
    stale_after: Duration | None = None

    def __post_init__(self) -> None:
        if self.full_every.to_hours() < self.check_every.to_hours():
            raise ValueError("full_every must be at least check_every (the schedule looks every check_every)")
        if self.incremental_every is not None and not 0.25 <= self.incremental_every.to_hours() <= 24:
            raise ValueError("incremental_every must be within 15 minutes..24 hours (DynamoDB's window)")

    @property
    def export_stale_after(self) -> Duration:
        return self.stale_after or Duration.hours(self.full_every.to_hours() + 6)


class OlapService(Construct, CountsExportFailures):
    """Export `tables` (key -> table) to S3 for Athena; `bucket`, `function`, `catalog` and `rule`."""

    service = "olap"

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
        self.export_stale_after = settings.export_stale_after  # monitoring's heartbeat (CountsExportFailures)
        self._grant()
        # Where EventBridge puts a run it could not start (monitoring alarms on it, and on the rule).
        self.schedule_failures = stream_failure_queue(self, "ScheduleFailures", consumer="export schedule")
        self.rule = events.Rule(
            self,
            "ExportSchedule",
            schedule=events.Schedule.rate(settings.check_every),
            description="tatami: start due DynamoDB exports, publish finished ones to Glue",
            targets=[
                targets.LambdaFunction(
                    self.function,
                    retry_attempts=2,
                    max_event_age=Duration.hours(1),
                    dead_letter_queue=self.schedule_failures,
                )
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
                full_every=_interval(settings.full_every),
                incremental_every=_interval(settings.incremental_every),  # None: no incremental runs
                check_every=_interval(settings.check_every),
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
            f"OlapService: table {key!r} has no point-in-time recovery; ExportTableToPointInTime needs it"
            for key, table in self.tables.items()
            if not has_point_in_time_recovery(table)
        ]


def _interval(duration: Duration | None) -> timedelta | None:
    return timedelta(seconds=duration.to_seconds()) if duration is not None else None


def catalog_name(stack: Stack, suffix: str, separator: str) -> str:
    """A name derived from the stack's: Glue accepts lowercase letters, digits and underscores."""
    return re.sub(r"[^a-z0-9]+", separator, f"{stack.stack_name}{separator}{suffix}".lower())


class OlapCatalog(Construct):
    """`database_name`, `work_group_name`, and the Glue table name per exported table key."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        bucket: s3.IBucket,
        tables: dict[str, str],
        exported: Mapping[str, ExportedTable],
    ) -> None:
        """`tables` maps each exported table key to its export prefix in `bucket` (e.g. exports/orders),
        `exported` to the table as SQL sees it."""
        super().__init__(scope, construct_id)
        stack = Stack.of(self)
        self.database_name = catalog_name(stack, "olap", "_")
        self.database = glue.CfnDatabase(
            self,
            "Database",
            catalog_id=Aws.ACCOUNT_ID,
            database_input=glue.CfnDatabase.DatabaseInputProperty(
                name=self.database_name, description="tatami: DynamoDB exports for Athena"
            ),
        )
        self.table_names = {key: self._table(bucket, exported[key], prefix) for key, prefix in tables.items()}
        self.work_group = self._work_group(bucket)
        self.work_group_name = self.work_group.name
        for query in named_queries().values():
            named = athena.CfnNamedQuery(
                self,
                f"Query_{query.name}",
                name=query.name,
                description=query.description[:1024],
                database=self.database_name,
                query_string=with_views(query.sql),
                work_group=self.work_group.ref,
            )
            named.node.add_dependency(self.database)

    def _table(self, bucket: s3.IBucket, table: ExportedTable, prefix: str) -> str:
        glue.CfnTable(
            self,
            f"Table_{table.key}",
            catalog_id=Aws.ACCOUNT_ID,
            database_name=self.database.ref,
            table_input=glue.CfnTable.TableInputProperty(
                name=table.raw,
                description=f"Newest full export of {table.description} (DynamoDB JSON)",
                table_type="EXTERNAL_TABLE",
                parameters={"classification": "json", "compressionType": "gzip", "typeOfData": "file"},
                storage_descriptor=glue.CfnTable.StorageDescriptorProperty(
                    columns=[glue.CfnTable.ColumnProperty(name="item", type=table.glue_type())],
                    # Empty until the first full export completes; the export function moves it.
                    location=f"s3://{bucket.bucket_name}/{prefix}/unpublished/",
                    input_format="org.apache.hadoop.mapred.TextInputFormat",
                    output_format="org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat",
                    compressed=True,
                    serde_info=glue.CfnTable.SerdeInfoProperty(serialization_library=_JSON_SERDE),
                ),
            ),
        )
        return table.raw

    def _work_group(self, bucket: s3.IBucket) -> athena.CfnWorkGroup:
        configuration = athena.CfnWorkGroup.WorkGroupConfigurationProperty(
            enforce_work_group_configuration=True,  # clients cannot send results elsewhere or unencrypted
            publish_cloud_watch_metrics_enabled=True,
            bytes_scanned_cutoff_per_query=SCAN_CUTOFF_BYTES,
            engine_version=athena.CfnWorkGroup.EngineVersionProperty(selected_engine_version="AUTO"),
            result_configuration=athena.CfnWorkGroup.ResultConfigurationProperty(
                output_location=f"s3://{bucket.bucket_name}/{RESULTS_PREFIX}",
                encryption_configuration=athena.CfnWorkGroup.EncryptionConfigurationProperty(
                    encryption_option="SSE_S3"
                ),
            ),
        )
        return athena.CfnWorkGroup(
            self,
            "WorkGroup",
            name=catalog_name(Stack.of(self), "olap", "-"),
            description="tatami: queries over the DynamoDB exports",
            recursive_delete_option=True,  # its saved queries and history go with the stack
            state="ENABLED",
            work_group_configuration=configuration,
        )


def exportable_tables(stack: Stack) -> dict[str, dynamodb.TableV2]:
    """Key -> every `TableV2` of `stack` with point-in-time recovery, by its `...TableName` output."""
    names = _table_name_outputs(stack)
    found = {}
    for table in (node for node in stack.node.find_all() if isinstance(node, dynamodb.TableV2)):
        if not has_point_in_time_recovery(table):
            continue
        logical_id = stack.get_logical_id(table.node.default_child)  # type: ignore[arg-type]
        if logical_id not in names:
            raise ValueError(f"table {table.node.path} has no `...TableName` stack output to name its export")
        found[table_key(names[logical_id])] = table
    return dict(sorted(found.items()))


def key_definitions(table: dynamodb.TableV2) -> list[dict[str, str]]:
    """The table's AttributeDefinitions (its key and index attributes) as the template writes them."""
    cfn: Any = table.node.default_child
    return [
        {"AttributeName": d["attributeName"], "AttributeType": d["attributeType"]}
        for d in Stack.of(table).resolve(cfn.attribute_definitions)
    ]


def has_point_in_time_recovery(table: dynamodb.TableV2) -> bool:
    """Whether every replica of `table` keeps point-in-time recovery (what exports need)."""
    replicas: Any = Stack.of(table).resolve(getattr(table.node.default_child, "replicas", None)) or []
    return bool(replicas) and all(
        (replica.get("pointInTimeRecoverySpecification") or {}).get("pointInTimeRecoveryEnabled") is True
        for replica in replicas
    )


def _table_name_outputs(stack: Stack) -> dict[str, str]:
    """Table logical id -> the key of the stack output whose value is its name (`Ref`).

    Table outputs are made in the stack's own scope, so an output's id is its key in the template.
    """
    names = {}
    for output in (node for node in stack.node.children if isinstance(node, CfnOutput)):
        key, value = output.node.id, stack.resolve(output.value)
        if key.endswith("TableName") and isinstance(value, dict) and "Ref" in value:
            names[value["Ref"]] = key
    return names
