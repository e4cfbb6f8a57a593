"""Where records the replica can never store go: the replication's failure queue, with their keys.

A record that fails for good (the item plus `_rep_seq` exceeds DynamoDB's 400 KB) would otherwise
block its shard until the mapping's retries run out and then take the records after it down with
it. Parking it instead lets the shard move on; the message names the key and sequence number so an
operator can re-copy the item (the source still has it) once it fits.
"""

from __future__ import annotations

from typing import Any

from tatami_functions.replication.records import Record


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
