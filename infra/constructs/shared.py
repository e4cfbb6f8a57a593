"""What every service construct receives: the layers, the one API, the page-token key, the settings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from constructs import Construct

from infra.constructs.data_table import DataTable
from infra.constructs.page_tokens import PageTokenKey
from infra.constructs.pattern_functions import PatternFunctions
from infra.constructs.service_api import ServiceApi
from infra.constructs.service_function import SharedLayers


@dataclass(frozen=True)
class Shared:
    layers: SharedLayers
    api: ServiceApi
    page_tokens: PageTokenKey
    deletion_protection: bool = True
    replica_regions: Sequence[str] = ()

    def data_table(self, scope: Construct, construct_id: str, **table_props: Any) -> DataTable:
        """A DataTable with the deployment's deletion protection and replica settings."""
        table_props.setdefault("deletion_protection", self.deletion_protection)
        table_props.setdefault("replica_regions", self.replica_regions)
        return DataTable(scope, construct_id, **table_props)

    def pattern_functions(self, service: str) -> PatternFunctions:
        """How a service of this app has a pattern (infra/patterns) make its functions: with the app's
        layers, under the service's name, deployed safely (the monitoring stack makes the alarm that
        rolls a deployment back)."""
        return PatternFunctions(layers=self.layers, service=service, safe_deployments=True)
