"""The custom metrics the stack alarms on, named once: the functions emit them (Powertools' EMF lines in
the `Tatami` namespace, with their `service` dimension) and `infra/constructs/monitoring.py` alarms on
them. The Z-index lag is the layer's own (`zindex.lambda_handler.LAG_METRIC`), below this package.
"""

from __future__ import annotations

__all__ = ["EXPORT_FAILURES", "ROLLUP_LAG", "export_metric"]

ROLLUP_LAG = "RollupLagSeconds"  # per roll-up batch: seconds since its oldest shard write


def export_metric(action: str) -> str:
    """The count the export function emits per table and outcome (full, incremental, wait, skip, failed).

    >>> export_metric("failed")
    'Exports_failed'
    """
    return f"Exports_{action}"


EXPORT_FAILURES = export_metric("failed")
