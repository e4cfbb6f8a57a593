"""Monitoring as code: one dashboard and an alarm for every way a watched stack can fail, to one topic.

cdk-monitoring-constructs builds the dashboard and the alarms; this module only chooses what to
watch (monitoring_targets.py finds it in the stack) and the thresholds below (docs/runbook.md
says what each alarm means and what to do). Every alarm notifies the topic on ALARM and on OK.

| family | metric (statistic, period) | alarms when |
|---|---|---|
| function errors | AWS/Lambda Errors (Sum, 5 min) | any invocation failed |
| function throttles | AWS/Lambda Throttles (Sum, 5 min) | any invocation was throttled |
| function duration | AWS/Lambda Duration (p99, 5 min) | p99 above 80% of the timeout, 3 periods running |
| stream consumer | AWS/Lambda IteratorAge (Maximum, 5 min) | a record waited over 5 minutes |
| failure queue | AWS/SQS ApproximateNumberOfMessagesVisible (Maximum, 5 min) | any message |
| table, index | AWS/DynamoDB Read/WriteThrottleEvents (Sum, 5 min) | any throttled request |
| API | AWS/ApiGateway 5XXError (Average, 5 min), Latency (p99) | over 1% 5xx; p99 over 5 s, 3 periods |
| Z index, roll-up | Tatami IndexLagSeconds, RollupLagSeconds (Maximum, 5 min) | a write waited over 60 s |
| export | Tatami Exports_failed (Sum, 1 hour) | any table's export failed |
"""

from __future__ import annotations

from dataclasses import dataclass

import cdk_monitoring_constructs as monitoring
from aws_cdk import Duration
from aws_cdk import aws_cloudwatch as cloudwatch
from aws_cdk import aws_dynamodb as dynamodb
from constructs import Construct

from infra import constants
from infra.constructs.alarm_topic import AlarmTopic
from infra.constructs.monitoring_targets import ServiceMetric, Targets, WatchedTable

CRITICAL, WARNING = "Critical", "Warning"  # the alarm names' last word: how urgent, not who is told
_ABOVE = cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD


@dataclass(frozen=True, slots=True)
class AlarmThresholds:
    duration_percent_of_timeout: int = 80
    iterator_age_seconds: int = 300
    api_5xx_rate: float = 0.01
    api_p99_latency_seconds: int = 5
    lag_seconds: int = 60
    sustained_periods: int = 3  # duration and latency alarm only after this many 5-minute periods

    def __post_init__(self) -> None:
        if not 1 <= self.duration_percent_of_timeout <= 100:
            raise ValueError("duration_percent_of_timeout must be within 1..100")
        if not 0 < self.api_5xx_rate < 1:
            raise ValueError("api_5xx_rate is a fraction of requests, within (0, 1)")


class Monitoring(Construct):
    """The alarms and dashboard of `targets`, named `<alarm_prefix>-<construct path>-<what>-<urgency>`."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        targets: Targets,
        alarm_prefix: str,
        email: str | None = None,
        thresholds: AlarmThresholds | None = None,
    ) -> None:
        super().__init__(scope, construct_id)
        self.thresholds = thresholds or AlarmThresholds()
        self.topic = AlarmTopic(self, "Alarms", alarm_prefix=alarm_prefix, email=email).topic
        notify = monitoring.SnsAlarmActionStrategy(on_alarm_topic=self.topic, on_ok_topic=self.topic)
        self.facade = monitoring.MonitoringFacade(
            self,
            "Facade",
            alarm_factory_defaults=monitoring.AlarmFactoryDefaults(
                actions_enabled=True,
                alarm_name_prefix=alarm_prefix,
                action=notify,
                datapoints_to_alarm=1,
                evaluation_periods=1,
                runbook_link="docs/runbook.md",
            ),
            dashboard_factory=monitoring.DefaultDashboardFactory(
                self, "Dashboards", dashboard_name_prefix=alarm_prefix, create_dashboard=True
            ),
        )
        for function in targets.functions:
            self._function(function.name, function.construct, function.name in targets.consumers)
        for queue in targets.failure_queues:
            self._failure_queue(queue.name, queue.construct)
        for table in targets.tables:
            self._table(table)
        for api in targets.apis:
            self._api(api.name, api.construct)
        lag, failures = self.thresholds.lag_seconds, 0
        self._service_metrics("Lags", targets.lags, "Maximum", lag, Duration.minutes(5), WARNING)
        self._service_metrics(
            "Exports", targets.export_failures, "Sum", failures, Duration.hours(1), CRITICAL
        )

    def _function(self, name: str, function: object, consumer: bool) -> None:
        sustained = self.thresholds.sustained_periods
        self.facade.monitor_lambda_function(
            lambda_function=function,  # type: ignore[arg-type]
            alarm_friendly_name=name,
            is_iterator=consumer,
            add_fault_count_alarm={CRITICAL: monitoring.ErrorCountThreshold(max_error_count=0)},
            add_throttles_count_alarm={CRITICAL: monitoring.ErrorCountThreshold(max_error_count=0)},
            add_latency_p99_alarm={
                WARNING: monitoring.LatencyTimeoutPercentageThreshold(
                    max_latency_percentage_of_timeout=self.thresholds.duration_percent_of_timeout,
                    datapoints_to_alarm=sustained,
                    evaluation_periods=sustained,
                )
            },
            add_max_iterator_age_alarm={
                WARNING: monitoring.MaxAgeThreshold(
                    max_age_in_millis=self.thresholds.iterator_age_seconds * 1000
                )
            }
            if consumer
            else None,
        )

    def _failure_queue(self, name: str, queue: object) -> None:
        # An idle, empty queue publishes no metric: that is not a failure.
        self.facade.monitor_sqs_queue(
            queue=queue,  # type: ignore[arg-type]
            alarm_friendly_name=name,
            add_queue_max_size_alarm={
                CRITICAL: monitoring.MaxMessageCountThreshold(
                    max_message_count=0, treat_missing_data_override=cloudwatch.TreatMissingData.NOT_BREACHING
                )
            },
        )

    def _table(self, watched: WatchedTable) -> None:
        table = dynamodb.Table.from_table_name(self, f"{watched.name}Table", watched.table.table_name)
        throttled = {WARNING: monitoring.ThrottledEventsThreshold(max_throttled_events_threshold=0)}
        self.facade.monitor_dynamo_table(
            table=table,
            billing_mode=dynamodb.BillingMode(watched.billing_mode),
            alarm_friendly_name=watched.name,
            add_read_throttled_events_count_alarm=throttled,
            add_write_throttled_events_count_alarm=throttled,
        )
        for index in watched.indexes:
            self.facade.monitor_dynamo_table_global_secondary_index(
                table=table,
                global_secondary_index_name=index,
                alarm_friendly_name=f"{watched.name}-{index}",
                add_read_throttled_events_count_alarm=throttled,
                add_write_throttled_events_count_alarm=throttled,
            )

    def _api(self, name: str, api: object) -> None:
        sustained = self.thresholds.sustained_periods
        self.facade.monitor_api_gateway(
            api=api,  # type: ignore[arg-type]
            api_stage=constants.API_STAGE,
            alarm_friendly_name=name,
            add5_xx_fault_rate_alarm={
                CRITICAL: monitoring.ErrorRateThreshold(max_error_rate=self.thresholds.api_5xx_rate)
            },
            add_latency_p99_alarm={
                WARNING: monitoring.LatencyThreshold(
                    max_latency=Duration.seconds(self.thresholds.api_p99_latency_seconds),
                    datapoints_to_alarm=sustained,
                    evaluation_periods=sustained,
                )
            },
        )

    def _service_metrics(
        self,
        title: str,
        metrics: list[ServiceMetric],
        statistic: str,
        threshold: float,
        period: Duration,
        urgency: str,
    ) -> None:
        """Alarms when a custom metric's `statistic` over `period` is above `threshold`; a metric
        nobody emitted (no batch, no export run) is no failure."""
        alarmed = [
            monitoring.CustomMetricWithAlarm(
                alarm_friendly_name=f"{metric.name}-{metric.metric}",
                metric=cloudwatch.Metric(
                    namespace=constants.METRICS_NAMESPACE,
                    metric_name=metric.metric,
                    dimensions_map={"service": metric.service},
                    statistic=statistic,
                    period=period,
                ),
                add_alarm={
                    urgency: monitoring.CustomThreshold(
                        threshold=threshold,
                        comparison_operator=_ABOVE,
                        treat_missing_data_override=cloudwatch.TreatMissingData.NOT_BREACHING,
                    )
                },
            )
            for metric in metrics
        ]
        if alarmed:
            self.facade.monitor_custom(
                alarm_friendly_name=title,
                metric_groups=[monitoring.CustomMetricGroup(title=title, metrics=alarmed)],
            )
