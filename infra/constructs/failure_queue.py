"""The on-failure queue of a stream event-source mapping: where Lambda sends the positions of batches
it gave up on (after its retries or the record age), to be replayed by hand or by a backfill."""

from __future__ import annotations

from aws_cdk import Duration
from aws_cdk import aws_sqs as sqs
from cdk_nag import NagPackSuppression, NagSuppressions
from constructs import Construct


def stream_failure_queue(scope: Construct, construct_id: str, *, consumer: str) -> sqs.Queue:
    """An encrypted, TLS-only queue keeping messages 14 days (the longest SQS allows).

    ``consumer`` names the stream function in the nag suppression's reason.
    """
    queue = sqs.Queue(
        scope,
        construct_id,
        enforce_ssl=True,
        encryption=sqs.QueueEncryption.SQS_MANAGED,
        retention_period=Duration.days(14),
    )
    NagSuppressions.add_resource_suppressions(
        queue,
        [
            NagPackSuppression(
                id="AwsSolutions-SQS3",
                reason=f"This queue is the {consumer}'s on-failure destination (its dead-letter queue); "
                "cdk-nag does not recognise an event-source on-failure queue as a DLQ.",
            )
        ],
    )
    return queue
