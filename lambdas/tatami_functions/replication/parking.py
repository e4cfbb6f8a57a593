"""Where records the replica can never store go: the replication's failure queue, with their keys.

A record that fails for good (the item plus `_rep_seq` exceeds DynamoDB's 400 KB) would otherwise
block its shard until the mapping's retries run out and then take the records after it down with
it. Parking it instead lets the shard move on; the message names the key and sequence number so an
operator can re-copy the item (the source still has it) once it fits.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from botocore.exceptions import BotoCoreError, ClientError

from tatami_functions.common.clients import aws_client
from tatami_functions.replication.exceptions import ReplicaUnavailableError
from tatami_functions.replication.records import Record
from tatami_functions.replication.settings import ReplicatorSettings

if TYPE_CHECKING:
    from mypy_boto3_sqs import SQSClient


def _client() -> SQSClient:
    client: SQSClient = aws_client("sqs")
    return client


def parked_message(record: Record, reason: str) -> dict[str, Any]:
    """The queue message for a parked record: what happened, to which key, at which stream position.

    >>> parked_message({"eventName": "MODIFY", "eventSourceARN": "arn", "dynamodb": {
    ...     "Keys": {"PK": {"S": "a"}}, "SequenceNumber": "7"}}, "too big")["keys"]
    {'PK': {'S': 'a'}}
    """
    stream = record["dynamodb"]
    return {
        "condition": "UnreplicableRecord",
        "reason": reason,
        "eventName": record["eventName"],
        "keys": stream["Keys"],
        "sequenceNumber": stream["SequenceNumber"],
        "approximateCreationDateTime": stream.get("ApproximateCreationDateTime"),
        "eventSourceARN": record.get("eventSourceARN"),
    }


def park(record: Record, reason: str, client: SQSClient | None = None) -> None:
    """Send the record's metadata to the failure queue; ReplicaUnavailableError if SQS refuses (retry)."""
    try:
        (client or _client()).send_message(
            QueueUrl=ReplicatorSettings.from_env().failure_queue_url,
            MessageBody=json.dumps(parked_message(record, reason)),
        )
    except (ClientError, BotoCoreError) as exc:
        sequence = record["dynamodb"]["SequenceNumber"]
        raise ReplicaUnavailableError(f"cannot park record {sequence}: {exc}") from exc
