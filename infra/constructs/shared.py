"""What every service construct receives: the layers, the one API, the page-token key, the settings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from aws_cdk import CfnOutput, Stack
from constructs import Construct

from infra.constructs.data_table import DataTable, schema_props
from infra.constructs.page_tokens import PageTokenKey
from infra.constructs.pattern_functions import PatternFunctions
from infra.constructs.service_api import ServiceApi
from infra.constructs.service_function import SharedLayers
from tatami_functions.common.tables import TableSchema


@dataclass(frozen=True)
class Shared:
    layers: SharedLayers
    api: ServiceApi
    page_tokens: PageTokenKey
    deletion_protection: bool = True
    replica_regions: Sequence[str] = ()

    def data_table(
        self,
        scope: Construct,
        construct_id: str,
        schema: TableSchema | None = None,
        *,
        output: str | None = None,
        **table_props: Any,
    ) -> DataTable:
        """A DataTable with the deployment's deletion protection and replica settings: the table `schema`
        declares (`tatami_functions.<service>.table`) when given, its name the stack output `output`
        when given (the key the CLI and the local cloud find it by, `stack_outputs`)."""
        table_props.setdefault("deletion_protection", self.deletion_protection)
        table_props.setdefault("replica_regions", self.replica_regions)
        declared = schema_props(schema) if schema else {}
        table = DataTable(scope, construct_id, **declared, **table_props)
        if output:
            CfnOutput(Stack.of(scope), output, value=table.table_name)
        return table

    def pattern_functions(self, service: str) -> PatternFunctions:
        """How a service of this app has a pattern (infra/patterns) make its functions: with the app's
        layers, under the service's name, deployed safely (the monitoring stack makes the alarm that
        rolls a deployment back)."""
        return PatternFunctions(layers=self.layers, service=service, safe_deployments=True)
