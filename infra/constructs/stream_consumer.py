"""How tatami's functions consume a DynamoDB stream: one event-source mapping shape, one failure queue.

The failure queue is where Lambda sends the positions of batches it gave up on (after its retries or
the record age), to be replayed by hand or by a backfill.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import jsii
from aws_cdk import Duration, RemovalPolicy
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_lambda_event_sources as sources
from aws_cdk import aws_sqs as sqs
from constructs import Construct

from infra.constructs.deployments import live_alias
from infra.nag import acknowledge


def stream_failure_queue(scope: Construct, construct_id: str, *, consumer: str) -> sqs.Queue:
    """An encrypted, TLS-only queue keeping messages 14 days (the longest SQS allows).

    ``consumer`` names whose failures it keeps (a stream function, a schedule) in the nag suppression's
    reason.
    """
    queue = sqs.Queue(
        scope,
        construct_id,
        removal_policy=RemovalPolicy.RETAIN,  # parked records outlive the stack (cdk destroy keeps it)
        enforce_ssl=True,
        encryption=sqs.QueueEncryption.SQS_MANAGED,
        retention_period=Duration.days(14),
    )
    acknowledge(
        queue,
        "AwsSolutions-SQS3",
        f"This queue is the {consumer}'s failure destination (its dead-letter queue); "
        "cdk-nag does not recognise an on-failure destination as a DLQ.",
    )
    return queue


def subscribe_to_stream(
    function: lambda_.Function,
    table: dynamodb.ITableV2,
    failures: sqs.IQueue,
    *,
    batch_size: int,
    batching_window: Duration,
    retry_attempts: int,
    max_record_age: Duration,
    filters: Sequence[Mapping[str, Any]] = (),
    safe_deployment: bool = True,
) -> None:
    """Run ``function`` on ``table``'s stream from its oldest record, reporting partial batch failures,
    bisecting a failing batch, within bounded retries and record age, parking what it gives up on in
    ``failures``. The mapping invokes the function's live alias, which CodeDeploy shifts to each new
    version (`deployments.live_alias`); without ``safe_deployment``, the function itself (an app that
    has no Critical alarm to roll a deployment back on)."""
    target: lambda_.Function | lambda_.Alias = live_alias(function) if safe_deployment else function
    target.add_event_source(
        sources.DynamoEventSource(
            table,
            starting_position=lambda_.StartingPosition.TRIM_HORIZON,
            batch_size=batch_size,
            max_batching_window=batching_window,
            bisect_batch_on_error=True,
            retry_attempts=retry_attempts,
            max_record_age=max_record_age,
            report_batch_item_failures=True,
            on_failure=_OnFailureQueue(failures),
            filters=list(filters) or None,
        )
    )


@jsii.implements(lambda_.IEventSourceDlq)
class _OnFailureQueue:
    """The mapping's on-failure queue, granted the one call Lambda makes on it: SendMessage (CDK's
    `SqsDlq` grants GetQueueAttributes and GetQueueUrl too, which nothing calls)."""

    def __init__(self, queue: sqs.IQueue) -> None:
        self.queue = queue

    def bind(
        self, _target: lambda_.IEventSourceMapping, target_handler: lambda_.IFunction
    ) -> lambda_.DlqDestinationConfig:
        self.queue.grant(target_handler, "sqs:SendMessage")
        return lambda_.DlqDestinationConfig(destination=self.queue.queue_arn)
