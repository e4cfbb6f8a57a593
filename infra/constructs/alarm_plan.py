"""What every group of alarms shares: their names' prefix, the thresholds, the runbook, the dashboards'
names, and where each urgency goes.

A Critical alarm of a service notifies nobody itself: its service's composite alarm pages (the Critical
topic), once, however many of its alarms fire, and is what a deployment of the service rolls back on.
A Critical alarm of the stage's shared parts (the API) notifies the Critical topic itself. A Warning
notifies the Warning topic. Every notification goes out on ALARM and again on OK.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

import cdk_monitoring_constructs as monitoring

from infra.constructs.alarm_topic import AlarmTopics
from infra.constructs.runbook import Runbook

CRITICAL, WARNING = "Critical", "Warning"  # the alarm names' last word: how urgent, not who is told


@dataclass(frozen=True, slots=True)
class AlarmThresholds:
    duration_percent_of_timeout: int = 80
    slow_period_minutes: int = 15  # a function's or the API's p99 is taken over this period
    iterator_age_seconds: int = 300
    api_5xx_rate: float = 0.05
    api_4xx_rate: float = 0.10
    api_min_requests: int = 50  # per 5 minutes: fewer requests tell nothing about a rate
    api_p99_latency_seconds: int = 5
    lag_seconds: int = 60
    throttled_events_floor: int = 50  # per table and its indexes, per 5 minutes
    system_errors_floor: int = 10  # per table, per 5 minutes
    parked_message_age_days: int = 10  # SQS deletes a message after 14 days
    account_concurrency_limit: int = 1000  # the account's Lambda quota (Service Quotas)
    account_concurrency_percent: int = 80

    def __post_init__(self) -> None:
        if not 1 <= self.duration_percent_of_timeout <= 100:
            raise ValueError("duration_percent_of_timeout must be within 1..100")
        for name in ("api_5xx_rate", "api_4xx_rate"):
            if not 0 < getattr(self, name) < 1:
                raise ValueError(f"{name} is a fraction of requests, within (0, 1)")
        if not 1 <= self.parked_message_age_days < 14:
            raise ValueError("parked_message_age_days must come before SQS's 14-day expiry")


class About(TypedDict):
    alarm_description_override: str
    runbook_link: str


@dataclass(frozen=True)
class AlarmPlan:
    prefix: str  # every alarm's name starts with it: the watched stack's name
    topics: AlarmTopics
    thresholds: AlarmThresholds
    runbook: Runbook
    dashboards: str  # every dashboard's name starts with it: the stack's name and the region

    def about(self, section: str, description: str) -> About:
        """A library alarm's description, saying what it means, and its runbook link (as keywords of
        its threshold)."""
        return About(alarm_description_override=description, runbook_link=self.runbook.link(section))

    def notify(self, urgency: str) -> monitoring.IAlarmActionStrategy:
        """The action of an alarm of `urgency` that notifies by itself: its topics, on ALARM and OK."""
        strategies = [
            monitoring.SnsAlarmActionStrategy(on_alarm_topic=topic, on_ok_topic=topic)
            for topic in self.topics.notified(urgency.lower())
        ]
        return strategies[0] if len(strategies) == 1 else monitoring.MultipleAlarmActionStrategy(strategies)
