"""One group of alarms with its dashboard: a service's, or the stage's shared parts' (the summary).

A service's group ends with the composite alarm that pages for it, named
`infra.constants.critical_alarm_name(stack, service)`: the service's deployments roll back on it by
that name (a contract with the service stack, which cannot reference this one).
"""

from __future__ import annotations

import cdk_monitoring_constructs as monitoring
from aws_cdk import Aws, Duration
from aws_cdk import aws_cloudwatch as cloudwatch
from aws_cdk import aws_cloudwatch_actions as actions
from constructs import Construct

from infra import constants
from infra.constructs import alarm_families as families
from infra.constructs import runbook, storage_alarms
from infra.constructs.alarm_families import MetricShape
from infra.constructs.alarm_plan import CRITICAL, WARNING, AlarmPlan
from infra.constructs.monitoring_targets import Targets


class AlarmGroup(Construct):
    """The alarms and dashboard (named `dashboard_name`) of `service`'s parts, or of the parts no service
    owns (`service` None), through one cdk-monitoring-constructs facade."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        plan: AlarmPlan,
        service: str | None,
        dashboard_name: str,
    ) -> None:
        super().__init__(scope, construct_id)
        self.plan, self.service = plan, service
        self.facade = monitoring.MonitoringFacade(
            self,
            "Facade",
            alarm_factory_defaults=monitoring.AlarmFactoryDefaults(
                actions_enabled=True,
                alarm_name_prefix=plan.prefix,
                disambiguator_action={
                    # a service's Critical alarms page through its composite alarm (`page`)
                    CRITICAL: monitoring.NoopAlarmActionStrategy() if service else plan.notify(CRITICAL),
                    WARNING: plan.notify(WARNING),
                },
                datapoints_to_alarm=1,
                evaluation_periods=1,
            ),
            dashboard_factory=monitoring.DefaultDashboardFactory(
                self, "Dashboards", dashboard_name_prefix=dashboard_name, create_dashboard=True
            ),
        )
        self.composite: cloudwatch.CompositeAlarm | None = None
        what = f"the {service} service" if service else "what every service shares, and each service's alarms"
        self.dashboard.add_widgets(
            cloudwatch.TextWidget(markdown=f"# {plan.prefix} in {Aws.REGION}: {what}", width=24, height=1)
        )

    @property
    def dashboard(self) -> cloudwatch.Dashboard:
        dashboard = self.facade.created_dashboard()
        assert dashboard is not None
        return dashboard

    def alarms(self) -> list[cloudwatch.IAlarm]:
        """Every alarm of the group, its composite first."""
        made = [created.alarm for created in self.facade.created_alarms()]
        return [*([self.composite] if self.composite else []), *made]

    def watch(self, targets: Targets) -> None:
        """Alarm on each part of `targets` (this group's)."""
        facade, plan, thresholds = self.facade, self.plan, self.plan.thresholds
        consumers = {consumer.function.name for consumer in targets.consumers}
        for function in targets.functions:
            families.watch_function(facade, plan, function, function.name in consumers)
        for consumer in targets.consumers:
            families.watch_consumer(facade, plan, consumer)
        for queue in targets.failure_queues:
            storage_alarms.watch_queue(facade, plan, queue)
        for table in targets.tables:
            storage_alarms.watch_table(facade, plan, table)
        for rule in targets.rules:
            families.watch_rule(facade, plan, rule)
        lag = thresholds.lag_seconds
        shapes = [
            (
                "Lags",
                targets.lags,
                MetricShape(WARNING, lag, runbook.LAG, f"Lag: a write waited over {lag} s"),
            ),
            (
                "Unencodable",
                targets.unencodable,
                MetricShape(
                    WARNING, 0, runbook.UNENCODABLE, "Unencodable items: left out of the index", "Sum"
                ),
            ),
            (
                "Exports",
                targets.export_failures,
                MetricShape(CRITICAL, 0, runbook.EXPORT_FAILED, "Failed exports", "Sum", Duration.hours(1)),
            ),
            (
                "ExportAge",
                targets.export_ages,
                MetricShape(
                    WARNING,
                    0,
                    runbook.EXPORT_STALE,
                    "Export age: no export completed lately",
                    period=Duration.hours(1),
                ),
            ),
        ]
        for title, metrics, shape in shapes:
            families.watch_metrics(facade, plan, title, metrics, shape)

    def page(self) -> None:
        """The composite alarm of the service's Critical alarms, which pages (and rolls deployments back)."""
        critical = [created.alarm for created in self.facade.created_alarms_with_disambiguator(CRITICAL)]
        if self.service is None or not critical:
            return
        name = constants.critical_alarm_name(self.plan.prefix, self.service)
        self.composite = cloudwatch.CompositeAlarm(
            self,
            "Critical",
            composite_alarm_name=name,
            alarm_rule=cloudwatch.AlarmRule.any_of(
                *(cloudwatch.AlarmRule.from_alarm(alarm, cloudwatch.AlarmState.ALARM) for alarm in critical)
            ),
            alarm_description=f"One of the {len(critical)} Critical alarms of the {self.service} service is "
            f"in ALARM. Runbook: {self.plan.runbook.link(runbook.SERVICE_CRITICAL)}",
        )
        for topic in self.plan.topics.notified("critical"):
            self.composite.add_alarm_action(actions.SnsAction(topic))
            self.composite.add_ok_action(actions.SnsAction(topic))
