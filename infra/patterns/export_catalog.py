"""The Athena side of a `TableExport`: a Glue database, a table per exported table, a workgroup and named
queries.

Each Glue table `raw_<key>` reads one full export's data folder (DynamoDB JSON, gzip) through the OpenX
JSON SerDe with one column, `item`, typed from the table's key attributes (or its declared columns,
`tatami_functions.olap.tables`); the export function moves its location to each new full export.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from aws_cdk import Aws, Stack
from aws_cdk import aws_athena as athena
from aws_cdk import aws_glue as glue
from aws_cdk import aws_s3 as s3
from constructs import Construct

from tatami_functions.olap.catalog import NamedQuery, with_views
from tatami_functions.olap.tables import ExportedTable

__all__ = ["RESULTS_PREFIX", "ExportCatalog", "catalog_name"]

RESULTS_PREFIX = "athena-results/"
SCAN_CUTOFF_BYTES = 10 * 1024**3  # a runaway query stops after 10 GB (Athena bills per TB scanned)
_JSON_SERDE = "org.openx.data.jsonserde.JsonSerDe"


def catalog_name(stack: Stack, suffix: str, separator: str) -> str:
    """A name derived from the stack's: Glue accepts lowercase letters, digits and underscores."""
    return re.sub(r"[^a-z0-9]+", separator, f"{stack.stack_name}{separator}{suffix}".lower())


class ExportCatalog(Construct):
    """`database_name`, `work_group_name`, and the Glue table name per exported table key."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        bucket: s3.IBucket,
        tables: dict[str, str],
        exported: Mapping[str, ExportedTable],
        name: str,
        queries: Iterable[NamedQuery] = (),
    ) -> None:
        """`tables` maps each exported table key to its export prefix in `bucket` (e.g. exports/orders),
        `exported` to the table as SQL sees it; `name` follows the stack's name in the database's and the
        workgroup's; `queries` are saved in the workgroup, each with the views it uses in front."""
        super().__init__(scope, construct_id)
        stack = Stack.of(self)
        self.database_name = catalog_name(stack, name, "_")
        self.database = glue.CfnDatabase(
            self,
            "Database",
            catalog_id=Aws.ACCOUNT_ID,
            database_input=glue.CfnDatabase.DatabaseInputProperty(
                name=self.database_name, description="tatami: DynamoDB exports for Athena"
            ),
        )
        self.table_names = {key: self._table(bucket, exported[key], prefix) for key, prefix in tables.items()}
        self.work_group = self._work_group(bucket, catalog_name(stack, name, "-"))
        self.work_group_name = self.work_group.name
        for query in queries:
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

    def _work_group(self, bucket: s3.IBucket, name: str) -> athena.CfnWorkGroup:
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
            name=name,
            description="tatami: queries over the DynamoDB exports",
            recursive_delete_option=True,  # its saved queries and history go with the stack
            state="ENABLED",
            work_group_configuration=configuration,
        )
