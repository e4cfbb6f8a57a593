"""The alarms of what no one service owns: the REST API, the alarm topics themselves, the account.

The API's 5xx rate is Critical and notifies by itself (no service's composite speaks for the API); it
and the 4xx rate are only judged over enough requests (`api_min_requests` in 5 minutes). Each topic's
failed deliveries notify the other topic: a topic that cannot deliver cannot say so itself. The
account's Lambda concurrency is one series for every stage in the account, so only the stage that
watches the account (`watchAccount`) alarms on it.
"""

from __future__ import annotations

import cdk_monitoring_constructs as monitoring
from aws_cdk import Duration

from infra import constants
from infra.constructs import alarm_math, runbook
from infra.constructs.alarm_families import CustomAlarm, Facade, custom
from infra.constructs.alarm_plan import CRITICAL, WARNING, AlarmPlan
from infra.constructs.watched_parts import Watched


def watch_api(facade: Facade, plan: AlarmPlan, api: Watched) -> None:
    thresholds = plan.thresholds
    facade.monitor_api_gateway(
        api=api.construct,
        api_stage=constants.API_STAGE,
        alarm_friendly_name=api.name,
        human_readable_name=f"{api.name} (REST API, stage {constants.API_STAGE})",
        add5_xx_fault_rate_alarm={CRITICAL: _rate(plan, "5xx", thresholds.api_5xx_rate, runbook.API_5XX)},
        add4_xx_error_rate_alarm={WARNING: _rate(plan, "4xx", thresholds.api_4xx_rate, runbook.API_4XX)},
        add_latency_p99_alarm={
            WARNING: monitoring.LatencyThreshold(
                max_latency=Duration.seconds(thresholds.api_p99_latency_seconds),
                period=Duration.minutes(thresholds.slow_period_minutes),
                **plan.about(
                    runbook.API_LATENCY,
                    f"Latency: a quarter hour's p99 over {thresholds.api_p99_latency_seconds} s",
                ),
            )
        },
    )


def _rate(plan: AlarmPlan, answers: str, rate: float, section: str) -> monitoring.ErrorRateThreshold:
    """A share of the API's answers, judged only over more than `api_min_requests` in 5 minutes."""
    enough = plan.thresholds.api_min_requests
    return monitoring.ErrorRateThreshold(
        max_error_rate=rate,
        min_sample_count_to_evaluate_datapoint=enough,
        **plan.about(section, f"{answers}: over {rate:.0%} of over {enough} requests in 5 minutes"),
    )


def watch_topics(facade: Facade, plan: AlarmPlan) -> None:
    """Each topic's failed deliveries, told through the other topic."""
    topics = plan.topics
    for topic, other in ((topics.critical, WARNING), (topics.warning, CRITICAL)):
        urgency = "Critical" if topic is topics.critical else "Warning"
        facade.monitor_sns_topic(
            topic=topic,
            alarm_friendly_name=f"{urgency}Topic",
            human_readable_name=f"{urgency} alarm topic",
            add_message_notifications_failed_alarm={
                WARNING: monitoring.NotificationsFailedThreshold(
                    max_notifications_failed_count=0,
                    action_override=plan.notify(other),
                    **plan.about(
                        runbook.NOTIFICATIONS_FAILED,
                        f"Notifications failed: the {urgency} topic could not deliver",
                    ),
                )
            },
        )


def watch_account(facade: Facade, plan: AlarmPlan) -> None:
    thresholds = plan.thresholds
    most = thresholds.account_concurrency_limit * thresholds.account_concurrency_percent // 100
    concurrency = alarm_math.metric("AWS/Lambda", "ConcurrentExecutions", {}, "Maximum")
    alarm = CustomAlarm(
        "Concurrent-Executions",
        concurrency,
        WARNING,
        most,
        runbook.ACCOUNT_CONCURRENCY,
        f"Account concurrency: over {most} of the account's {thresholds.account_concurrency_limit} Lambda "
        "executions at once (past the quota, every function is throttled)",
    )
    custom(facade, plan, "Account", "The account's Lambda concurrency", [alarm])
