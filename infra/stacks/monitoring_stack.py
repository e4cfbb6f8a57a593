"""The monitoring stack: the dashboard, alarms and alarm topic of the tatami stack.

A stack of its own, so the service stack keeps its room under CloudFormation's 500 resources (the
alarms are about half as many again). It reads the watched stack's functions, tables and queues
through CloudFormation exports, which CDK writes; `cdk deploy --all` deploys it after the watched
stack. Removing a watched resource therefore takes two deploys (the monitoring stack first stops
importing it), as with any CDK cross-stack reference.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from aws_cdk import CrossStackReferences, ReferenceStrength, Stack
from constructs import Construct

from infra.constructs.monitoring import Monitoring
from infra.constructs.monitoring_targets import Targets


def monitoring_stack_name(watched_stack_name: str) -> str:
    """`Tatami` -> `TatamiMonitoring`: the monitoring stack follows the watched stack's name."""
    return f"{watched_stack_name}Monitoring"


@dataclass(frozen=True)
class MonitoringSettings:
    """From CDK context `tatami` (cdk.json): `alarmEmail`, an address the alarm topic mails, or empty."""

    alarm_email: str | None = None

    @classmethod
    def from_context(cls, context: Mapping[str, Any] | None) -> MonitoringSettings:
        email = str((context or {}).get("alarmEmail") or "").strip()
        if email and "@" not in email:
            raise ValueError(f"alarmEmail {email!r} in cdk.json is not an email address")
        return cls(alarm_email=email or None)


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
        super().__init__(scope, construct_id, **kwargs)
        # Weak references (Fn::GetStackOutput): the watched stack never waits on this one, so removing
        # a function or table there is one deploy; its alarm goes when this stack is next deployed.
        CrossStackReferences.of(self).consume(ReferenceStrength.WEAK)
        settings = settings or MonitoringSettings()
        self.monitoring = Monitoring(
            self,
            "Monitoring",
            targets=Targets.of(watched),
            alarm_prefix=watched.stack_name,
            email=settings.alarm_email,
        )
