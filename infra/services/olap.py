"""The olap service (seed 004: DynamoDB is for OLTP; analytics read a point-in-time export in S3): the
`TableExport` pattern (infra/patterns/table_export.py: the bucket, the export function on its schedule
and its dead-letter queue, the Athena catalog) over the app's tables, with tatami's named queries and the
app's stack outputs. `tatami export` runs the function on demand.

The named queries are the files of lambdas/tatami_functions/olap/queries with the views they use in
front (`tatami_functions.olap.catalog.with_views`), the same text DuckDB runs locally.

Which tables are exported is found in the stack itself, so there is no list to keep: a table's key
is the name of the stack output that names it, in snake case (`OrdersTableName` -> `orders`, see
`tatami_functions.olap.tables.table_key`). A table with point-in-time recovery but no such output
fails synthesis, naming it.
"""

from __future__ import annotations

from collections.abc import Mapping

from aws_cdk import CfnOutput, Stack
from aws_cdk import aws_dynamodb as dynamodb
from constructs import Construct

from infra.constructs.shared import Shared
from infra.patterns import ExportSchedule, TableExport
from infra.patterns.export_settings import has_point_in_time_recovery
from tatami_functions import stack_outputs
from tatami_functions.olap.catalog import named_queries
from tatami_functions.olap.tables import table_key

SERVICE = "olap"


class OlapService(TableExport):
    """Export `tables` (key -> table) to S3 for Athena; `bucket`, `function`, `catalog` and `rule`."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        shared: Shared,
        *,
        tables: Mapping[str, dynamodb.TableV2],
        schedule: ExportSchedule | None = None,
    ) -> None:
        super().__init__(
            scope,
            construct_id,
            tables=tables,
            schedule=schedule,
            functions=shared.pattern_functions(SERVICE),
            catalog_name=SERVICE,
            queries=named_queries().values(),
        )
        self._outputs()

    def _outputs(self) -> None:
        stack = Stack.of(self)
        tables = stack.to_json_string({key: table.table_arn for key, table in self.tables.items()})
        CfnOutput(stack, stack_outputs.OUTPUT_OLAP_BUCKET, value=self.bucket.bucket_name)
        CfnOutput(
            stack, stack_outputs.OUTPUT_OLAP_TABLES, value=tables, description="exported tables: key -> ARN"
        )
        CfnOutput(stack, stack_outputs.OUTPUT_OLAP_DATABASE, value=self.catalog.database_name)
        CfnOutput(stack, stack_outputs.OUTPUT_OLAP_WORKGROUP, value=self.catalog.work_group_name)


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
