"""The alarms of the parts that hold data: failure and dead-letter queues, and tables with their indexes
(the table in monitoring.py says which and why; alarm_families.py has the other parts')."""

from __future__ import annotations

import cdk_monitoring_constructs as monitoring
from aws_cdk import aws_cloudwatch as cloudwatch
from aws_cdk import aws_dynamodb as dynamodb

from infra.constructs import alarm_math, runbook
from infra.constructs.alarm_families import CustomAlarm, Facade, custom
from infra.constructs.alarm_plan import CRITICAL, WARNING, AlarmPlan
from infra.constructs.watched_parts import Watched, WatchedTable

_NOT_BREACHING = cloudwatch.TreatMissingData.NOT_BREACHING


def watch_queue(facade: Facade, plan: AlarmPlan, queue: Watched) -> None:
    """A failure (or dead-letter) queue: a message arriving is a batch or event given up on (Critical,
    for the period it arrived in); messages still waiting, and one nearing SQS's 14-day expiry, are
    Warnings (they stay until someone acts: a lasting Critical would mask the next failure)."""
    facade.monitor_sqs_queue(
        queue=queue.construct,
        alarm_friendly_name=queue.name,
        human_readable_name=queue.name,
        add_queue_max_incoming_messages_alarm={
            CRITICAL: monitoring.MaxIncomingMessagesCountThreshold(
                max_incoming_messages_count=0,
                treat_missing_data_override=_NOT_BREACHING,
                **plan.about(
                    runbook.BATCH_PARKED, "Parked: a batch or an event was given up on and parked here"
                ),
            )
        },
        add_queue_max_size_alarm={
            WARNING: monitoring.MaxMessageCountThreshold(
                max_message_count=0,
                treat_missing_data_override=_NOT_BREACHING,  # an idle, empty queue publishes no metric
                **plan.about(runbook.PARKED_WAITING, "Waiting: parked messages wait for a replay"),
            )
        },
        add_queue_max_message_age_alarm={
            WARNING: monitoring.MaxMessageAgeThreshold(
                max_age_in_seconds=plan.thresholds.parked_message_age_days * 86_400,
                treat_missing_data_override=_NOT_BREACHING,
                **plan.about(
                    runbook.PARKED_EXPIRING,
                    f"Expiring: a parked message is {plan.thresholds.parked_message_age_days} days old (SQS "
                    "deletes it at 14)",
                ),
            )
        },
    )


def watch_table(facade: Facade, plan: AlarmPlan, watched: WatchedTable) -> None:
    """Its standard graphs, and two Warnings: throttling of the table and its indexes together past a
    floor (a load test's few throttled requests are retried, not news), and DynamoDB's own errors."""
    table = dynamodb.Table.from_table_name(facade, f"{watched.name}Table", watched.table.table_name)
    facade.monitor_dynamo_table(
        table=table,
        billing_mode=dynamodb.BillingMode(watched.billing_mode),
        alarm_friendly_name=watched.name,
        human_readable_name=watched.name,
    )
    thresholds = plan.thresholds
    throttled = alarm_math.throttled_events(table.table_name, watched.indexes)
    alarms = [
        CustomAlarm(
            f"Throttled-Events{'' if n == 0 else f'-{n + 1}'}",
            expression,
            WARNING,
            thresholds.throttled_events_floor,
            runbook.TABLE_THROTTLED,
            f"Throttled events: over {thresholds.throttled_events_floor} in 5 minutes, table and indexes",
        )
        for n, expression in enumerate(throttled)
    ]
    alarms.append(
        CustomAlarm(
            "System-Errors",
            alarm_math.system_errors(table.table_name),
            WARNING,
            thresholds.system_errors_floor,
            runbook.SYSTEM_ERRORS,
            f"System errors: DynamoDB answered over {thresholds.system_errors_floor} requests with a 500",
        )
    )
    custom(facade, plan, f"{watched.name}-Health", f"{watched.name} (throttling and errors)", alarms)
