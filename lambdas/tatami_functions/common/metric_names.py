"""The custom metrics the stack alarms on, named once: the functions emit them (Powertools' EMF lines in
their stage's namespace, `infra.constants.metrics_namespace`, with their `service` dimension) and
`infra/constructs/monitoring.py` alarms on them. The Z index's are the layer's own
(`zindex.lambda_handler.LAG_METRIC`, `UNENCODABLE_METRIC`), below this package.
"""

from __future__ import annotations

__all__ = ["EXPORT_AGE", "EXPORT_FAILURES", "ROLLUP_LAG", "export_metric"]

ROLLUP_LAG = "RollupLagSeconds"  # per roll-up batch: seconds since its oldest shard write


def export_metric(action: str) -> str:
    """The count the export function emits per table and outcome (full, incremental, wait, skip, failed).

    >>> export_metric("failed")
    'Exports_failed'
    """
    return f"Exports_{action}"


EXPORT_FAILURES = export_metric("failed")  # per run: failed starts, and exports DynamoDB failed since
# per run: seconds since the instant the stalest table's newest completed export reaches (a heartbeat)
EXPORT_AGE = "ExportAgeSeconds"
