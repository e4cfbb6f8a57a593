"""The export function: on its schedule (and when invoked) export every configured table.

The event may name `tables` (keys) and `kind` (auto, full, incremental); a scheduled event asks
for `auto`. Any failed table fails the invocation after the others were done, so the schedule's
retry (same event id, same client tokens) starts nothing twice. Exports DynamoDB marked FAILED
since the previous run count as failures too (they do not fail the invocation: a retry would not
start them again), and the age of the stalest table's newest exported data is the alarms' heartbeat.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.typing import LambdaContext

from tatami_functions.common.metric_names import EXPORT_AGE, EXPORT_FAILURES, export_metric
from tatami_functions.common.observability import logger, metrics
from tatami_functions.olap.exceptions import ExportError
from tatami_functions.olap.repository import repository
from tatami_functions.olap.service import ExportOutcome, run_aws
from tatami_functions.olap.settings import ExportSettings


@logger.inject_lambda_context
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    settings = ExportSettings.from_env().select(event.get("tables"))
    kind = str(event.get("kind", "auto"))
    outcomes = run_aws(settings, repository(), kind=kind, seed=str(event.get("id", "")))
    return report(outcomes)


def report(outcomes: list[ExportOutcome]) -> dict[str, Any]:
    """Log and count each table's outcome; raise when any failed."""
    for outcome in outcomes:
        logger.info(outcome.line(), extra=outcome.to_json())
        metrics.add_metric(name=export_metric(outcome.action), unit=MetricUnit.Count, value=1)
        if outcome.failed_later:
            metrics.add_metric(name=EXPORT_FAILURES, unit=MetricUnit.Count, value=outcome.failed_later)
    ages = [outcome.age_seconds for outcome in outcomes if outcome.age_seconds is not None]
    if ages:
        metrics.add_metric(name=EXPORT_AGE, unit=MetricUnit.Seconds, value=round(max(ages)))
    failed = [outcome.line() for outcome in outcomes if outcome.action == "failed"]
    if failed:
        raise ExportError("; ".join(failed))
    return {"exports": [outcome.to_json() for outcome in outcomes]}
