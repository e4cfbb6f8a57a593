"""The metric math the alarms watch where one AWS metric is not the signal.

Every expression here is what the local cloud evaluates too (tatami/local/cloudwatch/alarm_eval.py:
arithmetic, FILL, comparisons, AND/OR and IF), and none reads more than the 10 metrics an alarm may.

- A table's throttling: the throttle events of the table and of all its indexes, summed (an index
  throttled on writes throttles its table's writes too), so one alarm with one floor speaks for it.
- A table's system errors: DynamoDB's 500s summed over the operations the app calls.
- A stream consumer's standstill: a mapping that stops invoking reports no IteratorAge at all, so the
  sign is a period in which its table was written and it never ran.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from aws_cdk import Duration
from aws_cdk import aws_cloudwatch as cloudwatch

MAX_METRICS = 10  # per alarm (CloudWatch's hard limit for metric math)
FIVE_MINUTES = Duration.minutes(5)
# The operations DynamoDB counts SystemErrors for that the app's functions call (MAX_METRICS of them).
SYSTEM_ERROR_OPERATIONS = (
    "GetItem",
    "BatchGetItem",
    "Query",
    "Scan",
    "PutItem",
    "UpdateItem",
    "DeleteItem",
    "BatchWriteItem",
    "TransactWriteItems",
    "TransactGetItems",
)


def metric(
    namespace: str,
    name: str,
    dimensions: Mapping[str, str],
    statistic: str = "Sum",
    period: Duration = FIVE_MINUTES,
) -> cloudwatch.Metric:
    return cloudwatch.Metric(
        namespace=namespace,
        metric_name=name,
        dimensions_map=dict(dimensions),
        statistic=statistic,
        period=period,
    )


def summed(metrics: Sequence[cloudwatch.Metric], label: str) -> cloudwatch.MathExpression:
    """The sum of `metrics`, a missing one counting as 0 (most are only published when nonzero)."""
    if len(metrics) > MAX_METRICS:
        raise ValueError(f"{label}: {len(metrics)} metrics, more than an alarm may read ({MAX_METRICS})")
    ids = [f"m{n}" for n in range(len(metrics))]
    return cloudwatch.MathExpression(
        expression="+".join(f"FILL({i},0)" for i in ids),
        using_metrics=dict(zip(ids, metrics, strict=True)),
        label=label,
        period=FIVE_MINUTES,
    )


def throttled_events(table_name: str, indexes: Sequence[str]) -> list[cloudwatch.MathExpression]:
    """The table's and its indexes' read and write throttle events, summed: one expression, or more
    when the table has more indexes than one alarm may read (four indexes fit in one)."""
    series = [{"TableName": table_name}] + [
        {"TableName": table_name, "GlobalSecondaryIndexName": index} for index in indexes
    ]
    metrics = [
        metric("AWS/DynamoDB", events, dimensions)
        for dimensions in series
        for events in ("ReadThrottleEvents", "WriteThrottleEvents")
    ]
    chunks = [metrics[start : start + MAX_METRICS] for start in range(0, len(metrics), MAX_METRICS)]
    return [summed(chunk, "Throttled events (table and indexes)") for chunk in chunks]


def system_errors(table_name: str) -> cloudwatch.MathExpression:
    return summed(
        [
            metric("AWS/DynamoDB", "SystemErrors", {"TableName": table_name, "Operation": operation})
            for operation in SYSTEM_ERROR_OPERATIONS
        ],
        "System errors",
    )


def stopped(function_name: str, table_name: str) -> cloudwatch.MathExpression:
    """1 in a period when the table was written and the stream consumer was never invoked, else 0."""
    using = {
        "invoked": metric("AWS/Lambda", "Invocations", {"FunctionName": function_name}),
        "written": metric("AWS/DynamoDB", "ConsumedWriteCapacityUnits", {"TableName": table_name}),
    }
    return cloudwatch.MathExpression(
        expression="IF(FILL(written,0) > 0 AND FILL(invoked,0) == 0, 1, 0)",
        using_metrics=using,
        label="Written, never invoked",
        period=FIVE_MINUTES,
    )
