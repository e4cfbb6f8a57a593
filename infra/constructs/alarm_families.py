"""The alarms of the parts that run: functions, stream consumers, schedules and the metrics functions
emit (the list in monitoring.py says which and why; storage_alarms.py has the queues' and tables').

Every function here adds one part's alarms, and its dashboard segment, to a group's facade (one per
service, and one for the stage's shared parts: alarm_group.py); the thresholds and where alarms go are
the `AlarmPlan`'s, the runbook section each alarm links to is `runbook.py`'s. `custom` is the one way
an alarm on a metric or an expression of ours is made.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cdk_monitoring_constructs as monitoring
from aws_cdk import Duration
from aws_cdk import aws_cloudwatch as cloudwatch

from infra import constants
from infra.constructs import alarm_math, runbook
from infra.constructs.alarm_plan import CRITICAL, WARNING, AlarmPlan
from infra.constructs.watched_parts import ServiceMetric, Watched, WatchedConsumer

Facade = monitoring.MonitoringFacade

_ABOVE = cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD
_NOT_BREACHING = cloudwatch.TreatMissingData.NOT_BREACHING


@dataclass(frozen=True)
class CustomAlarm:
    """One alarm on `metric` (a metric or an expression): above `threshold` in `datapoints` of the
    last `datapoints` periods; a period without data does not breach."""

    name: str  # its part of the alarm's name
    metric: cloudwatch.IMetric
    urgency: str
    threshold: float
    section: str  # its runbook section
    description: str
    datapoints: int = 1


def custom(facade: Facade, plan: AlarmPlan, name: str, title: str, alarms: Sequence[CustomAlarm]) -> None:
    """`alarms` as one dashboard segment titled `title`, one graph each."""
    facade.monitor_custom(
        alarm_friendly_name=name,
        human_readable_name=title,
        metric_groups=[
            monitoring.CustomMetricGroup(
                title=alarm.description.split(":")[0],
                metrics=[
                    monitoring.CustomMetricWithAlarm(
                        alarm_friendly_name=alarm.name,
                        metric=alarm.metric,  # type: ignore[arg-type]
                        add_alarm={
                            alarm.urgency: monitoring.CustomThreshold(
                                threshold=alarm.threshold,
                                comparison_operator=_ABOVE,
                                treat_missing_data_override=_NOT_BREACHING,
                                datapoints_to_alarm=alarm.datapoints,
                                evaluation_periods=alarm.datapoints,
                                alarm_description_override=alarm.description,
                                runbook_link=plan.runbook.link(alarm.section),
                            )
                        },
                    )
                ],
            )
            for alarm in alarms
        ],
    )


def watch_function(facade: Facade, plan: AlarmPlan, function: Watched, consumer: bool) -> None:
    """Errors and throttles (Critical: either is a failed request or batch), p99 duration near the timeout
    and a stream consumer's iterator age (Warning). Each trips on one invocation's datapoint, so sporadic
    and scheduled functions can raise them too; a quiet period is not a failure."""
    thresholds = plan.thresholds
    facade.monitor_lambda_function(
        lambda_function=function.construct,
        alarm_friendly_name=function.name,
        human_readable_name=function.name,
        is_iterator=consumer,
        add_fault_count_alarm={
            CRITICAL: monitoring.ErrorCountThreshold(
                max_error_count=0,
                **plan.about(
                    runbook.FUNCTION_ERRORS, "Errors: an invocation failed (an error, a timeout, a crash)"
                ),
            )
        },
        add_throttles_count_alarm={
            CRITICAL: monitoring.ErrorCountThreshold(
                max_error_count=0,
                **plan.about(runbook.FUNCTION_THROTTLES, "Throttles: Lambda refused invocations"),
            )
        },
        add_latency_p99_alarm={
            WARNING: monitoring.LatencyTimeoutPercentageThreshold(
                max_latency_percentage_of_timeout=thresholds.duration_percent_of_timeout,
                period=Duration.minutes(thresholds.slow_period_minutes),
                treat_missing_data_override=_NOT_BREACHING,
                **plan.about(
                    runbook.FUNCTION_SLOW,
                    f"Slow: a quarter hour's p99 duration over {thresholds.duration_percent_of_timeout}% of "
                    "the timeout",
                ),
            )
        },
        add_max_iterator_age_alarm={
            WARNING: monitoring.MaxAgeThreshold(
                max_age_in_millis=thresholds.iterator_age_seconds * 1000,
                treat_missing_data_override=_NOT_BREACHING,  # read nothing: `watch_consumer` judges that
                **plan.about(
                    runbook.CONSUMER_BEHIND,
                    f"Iterator age: a stream record waited over {thresholds.iterator_age_seconds} s",
                ),
            )
        }
        if consumer
        else None,
    )


def watch_consumer(facade: Facade, plan: AlarmPlan, consumer: WatchedConsumer) -> None:
    """A mapping that stopped invoking its function (Critical, two periods running: its table written,
    the function never invoked; a mapping whose filter lets only some records through cannot be judged
    so), and failed deliveries to its on-failure queue (Critical: the batch's position is lost). Its
    iterator age is `watch_function`'s."""
    function = consumer.function.construct
    failures = alarm_math.metric(
        "AWS/Lambda", "DestinationDeliveryFailures", {"FunctionName": function.function_name}
    )
    alarms = [
        CustomAlarm(
            "Destination-Delivery-Failures",
            failures,
            CRITICAL,
            0,
            runbook.DELIVERY_FAILED,
            "Failed deliveries: a batch given up on could not be parked in the on-failure queue",
        )
    ]
    if not consumer.filtered:
        stopped = alarm_math.stopped(function.function_name, consumer.table.table_name)
        description = "Stopped: its table was written and it was never invoked, two periods running"
        alarms.append(CustomAlarm("Stopped", stopped, CRITICAL, 0, runbook.CONSUMER_STOPPED, description, 2))
    title = f"{consumer.function.name} (stream consumer)"
    custom(facade, plan, f"{consumer.function.name}-Stream", title, alarms)


def watch_rule(facade: Facade, plan: AlarmPlan, rule: Watched) -> None:
    """A scheduled rule that could not invoke its target (Critical: the run did not happen)."""
    failed = alarm_math.metric("AWS/Events", "FailedInvocations", {"RuleName": rule.construct.rule_name})
    alarm = CustomAlarm(
        "Failed-Invocations",
        failed,
        CRITICAL,
        0,
        runbook.SCHEDULE_FAILED,
        "Failed invocations: the schedule could not invoke its target (see its dead-letter queue)",
    )
    custom(facade, plan, rule.name, f"{rule.name} (schedule)", [alarm])


@dataclass(frozen=True)
class MetricShape:
    """How the alarms on one kind of the functions' own metrics look."""

    urgency: str
    threshold: float  # unless the metric names its own
    section: str
    description: str
    statistic: str = "Maximum"
    period: Duration = alarm_math.FIVE_MINUTES


def watch_metrics(
    facade: Facade, plan: AlarmPlan, title: str, metrics: Sequence[ServiceMetric], shape: MetricShape
) -> None:
    """One alarm per custom metric, in the stage's namespace with the emitting service's dimension."""
    if not metrics:
        return
    namespace = constants.metrics_namespace(plan.prefix)
    alarms = [
        CustomAlarm(
            f"{metric.name}-{metric.metric}",
            alarm_math.metric(
                namespace, metric.metric, {"service": metric.service}, shape.statistic, shape.period
            ),
            shape.urgency,
            shape.threshold if metric.threshold is None else metric.threshold,
            shape.section,
            shape.description,
        )
        for metric in metrics
    ]
    custom(facade, plan, title, f"{title}: {shape.description}", alarms)
