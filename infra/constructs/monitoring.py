"""Monitoring as code: an alarm for every way a watched stack can fail, that reaches a person, and a
dashboard per service plus a summary.

cdk-monitoring-constructs builds the dashboards and most alarms; this package chooses what to watch
(monitoring_targets.py finds it in the stack; alarm_families.py, storage_alarms.py and
shared_alarms.py alarm on each kind of part), the thresholds (alarm_plan.py) and where alarms go
(alarm_topic.py; docs/runbook.md says what each alarm means and what to do). Every alarm watches its
own stage's series (its API is named after its stack, its custom metrics are in its stack's namespace)
and can fire under the schedule of what feeds it: one breaching period is enough (two for a stream
consumer's age, which its table's writes feed every period), so a sporadic or an hourly function
raises its alarms too (`tatami doctor` checks each against its function's schedule).

Family: metric (statistic, period), when it alarms, how urgent.

- function errors, throttles: AWS/Lambda Errors, Throttles (Sum, 5 min), any: Critical.
- function duration: AWS/Lambda Duration (p99, 15 min), over 80% of the timeout: Warning.
- stream consumer: IteratorAge (Max, 5 min), or its table written (ConsumedWriteCapacityUnits) while
  it was never invoked, over 5 minutes, two periods running: Warning; DestinationDeliveryFailures
  (its on-failure queue unreachable), any: Critical.
- failure and dead-letter queues: AWS/SQS NumberOfMessagesSent, any: Critical; messages visible,
  any, and the oldest's age, 10 days (SQS keeps 14): Warning.
- table with its indexes: Read/WriteThrottleEvents summed, over 50, and SystemErrors summed, over
  10 (Sum, 5 min): Warning.
- API: 5XXError and 4XXError rates (5 min, over 50 requests), over 5%: Critical, over 10%: Warning;
  Latency p99 (15 min) over 5 s: Warning.
- Z index, roll-up: IndexLagSeconds, RollupLagSeconds (Max, 5 min) over 60 s, UnencodableItems any:
  Warning.
- export: Exports_failed (Sum, 1 h) any: Critical; ExportAgeSeconds (Max, 1 h) past its staleness:
  Warning; AWS/Events FailedInvocations of its schedule, any: Critical.
- alarm topics: AWS/SNS NumberOfNotificationsFailed, any, told through the other topic: Warning.
- account (one stage per account): AWS/Lambda ConcurrentExecutions over 80% of the quota: Warning.

A service's Critical alarms page through its composite alarm (alarm_group.py).
"""

from __future__ import annotations

from aws_cdk import Aws
from aws_cdk import aws_cloudwatch as cloudwatch
from constructs import Construct

from infra.constructs import shared_alarms
from infra.constructs.alarm_group import AlarmGroup
from infra.constructs.alarm_plan import AlarmPlan, AlarmThresholds
from infra.constructs.alarm_topic import AlarmDestinations, AlarmTopics
from infra.constructs.monitoring_targets import Targets
from infra.constructs.runbook import Runbook

SUMMARY = "Summary"
_WIDE = 24  # a dashboard's width in grid units


class Monitoring(Construct):
    """The alarms and dashboards of `targets`, named `<alarm_prefix>-<construct path>-<what>-<urgency>`;
    the dashboards `<alarm_prefix>-<region>-<service>` and `<alarm_prefix>-<region>-Summary`."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        targets: Targets,
        alarm_prefix: str,
        destinations: AlarmDestinations | None = None,
        runbook: Runbook | None = None,
        thresholds: AlarmThresholds | None = None,
        watch_account: bool = False,
    ) -> None:
        super().__init__(scope, construct_id)
        self.topics = AlarmTopics(
            self, "Alarms", alarm_prefix=alarm_prefix, destinations=destinations or AlarmDestinations()
        )
        dashboards = f"{alarm_prefix}-{Aws.REGION}"
        self.plan = AlarmPlan(
            alarm_prefix, self.topics, thresholds or AlarmThresholds(), runbook or Runbook(), dashboards
        )
        self.services = {service: self._service(targets, service) for service in targets.services()}
        self.summary = AlarmGroup(
            self, SUMMARY, plan=self.plan, service=None, dashboard_name=f"{dashboards}-{SUMMARY}"
        )
        self._summarize()
        self.summary.watch(targets.of_service(None))
        for api in targets.apis:
            shared_alarms.watch_api(self.summary.facade, self.plan, api)
        shared_alarms.watch_topics(self.summary.facade, self.plan)
        if watch_account:
            shared_alarms.watch_account(self.summary.facade, self.plan)

    def _service(self, targets: Targets, service: str) -> AlarmGroup:
        group = AlarmGroup(
            self, service, plan=self.plan, service=service, dashboard_name=f"{self.plan.dashboards}-{service}"
        )
        group.watch(targets.of_service(service))
        group.page()
        return group

    def _summarize(self) -> None:
        """The summary's first rows: what pages (each service's composite) and every alarm, by service."""
        statuses = [
            cloudwatch.AlarmStatusWidget(  # CloudWatch shows 100 alarms a widget; the composite comes first
                alarms=group.alarms()[:100], title=service, width=_WIDE // 3, height=4
            )
            for service, group in self.services.items()
        ]
        self.summary.dashboard.add_widgets(*statuses)
