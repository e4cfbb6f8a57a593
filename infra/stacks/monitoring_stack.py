"""The monitoring stack: the dashboards, alarms and alarm topics of the tatami stack.

A stack of its own, so the service stack keeps its room under CloudFormation's 500 resources (the
alarms are about half as many again). It reads the watched stack's functions, tables and queues
through weak references (Fn::GetStackOutput), which CDK writes; `cdk deploy --all` deploys it after
the watched stack.

A stage other than a developer's (`stack_outputs.is_dev_stage`) must tell someone: synthesis refuses
it without an alarm destination, or without a runbook URL that opens from an e-mail.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from aws_cdk import CrossStackReferences, ReferenceStrength, Stack
from constructs import Construct

from infra.constructs.alarm_topic import AlarmDestinations
from infra.constructs.monitoring import Monitoring
from infra.constructs.monitoring_targets import Targets
from infra.constructs.runbook import RUNBOOK_PATH, Runbook
from tatami_functions.stack_outputs import is_dev_stage


def monitoring_stack_name(watched_stack_name: str) -> str:
    """`Tatami` -> `TatamiMonitoring`: the monitoring stack follows the watched stack's name."""
    return f"{watched_stack_name}Monitoring"


@dataclass(frozen=True)
class MonitoringSettings:
    """From CDK context `tatami` (cdk.json): `alarmEmail` and `alarmDestinations` (who is told),
    `runbookUrl` (docs/runbook.md as the team's repository serves it), `watchAccount` (whether this
    stage alarms on account-wide quotas; by default the stages that are not a developer's)."""

    destinations: AlarmDestinations = field(default_factory=AlarmDestinations)
    runbook: Runbook = field(default_factory=Runbook)
    watch_account: bool = False

    @classmethod
    def from_context(cls, context: Mapping[str, Any] | None, stage: str | None = None) -> MonitoringSettings:
        context = context or {}
        settings = cls(
            destinations=AlarmDestinations.from_context(context),
            runbook=Runbook(str(context.get("runbookUrl") or RUNBOOK_PATH)),
            watch_account=bool(context.get("watchAccount", not is_dev_stage(stage))),
        )
        if not is_dev_stage(stage):
            settings.check_operated(stage)
        return settings

    def check_operated(self, stage: str | None) -> None:
        """A stage someone operates: its alarms reach a person, and their runbook links open."""
        if not self.destinations:
            raise ValueError(
                f"stage {stage!r} has no alarm destination, so no alarm would reach anyone: set alarmEmail "
                "or alarmDestinations ({'critical': [...], 'warning': [...]}) in cdk.json's tatami context"
            )
        if not self.runbook.opens:
            raise ValueError(
                f"stage {stage!r} has no runbookUrl: set it in cdk.json's tatami context to the https:// URL "
                f"of {RUNBOOK_PATH} in your repository, so the alarms' runbook links open"
            )


class MonitoringStack(Stack):
    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        watched: Stack,
        settings: MonitoringSettings | None = None,
        **kwargs: Any,
    ) -> None:
        # Unindented: the dashboards' bodies and the alarms make a large template (CloudFormation takes
        # at most 1 MB), and indentation was a quarter of it.
        super().__init__(scope, construct_id, suppress_template_indentation=True, **kwargs)
        # Weak references (Fn::GetStackOutput): the watched stack never waits on this one, so removing
        # a function or table there is one deploy; its alarm goes when this stack is next deployed.
        CrossStackReferences.of(self).consume(ReferenceStrength.WEAK)
        settings = settings or MonitoringSettings()
        self.monitoring = Monitoring(
            self,
            "Monitoring",
            targets=Targets.of(watched),
            alarm_prefix=watched.stack_name,
            destinations=settings.destinations,
            runbook=settings.runbook,
            watch_account=settings.watch_account,
        )
