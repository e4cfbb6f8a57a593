"""Stream records in the shape Lambda hands a handler, from what DynamoDB Local's GetRecords returns.

boto3 parses binary attributes to bytes and times to datetimes; Lambda's event keeps binary as
base64 text and times as epoch seconds, names the region and account of the function, and reports
TTL deletions as REMOVE by the DynamoDB service.

DynamoDB Local floors ``ApproximateCreationDateTime`` to the minute (AWS: to the second), which would
make every iterator age up to a minute too old. A record was written before the poller first read it
and within the floored minute, so the poller gives the earlier of the two bounds (the read time when
it keeps up, which is the case the index lag reports on).
"""

from __future__ import annotations

import base64
from datetime import datetime
from typing import Any

from tatami.local.template.intrinsics import LOCAL_ACCOUNT, LOCAL_REGION

TTL_IDENTITY = {"type": "Service", "principalId": "dynamodb.amazonaws.com"}


def lambda_record(raw: dict[str, Any], event_source_arn: str, read_at: float | None = None) -> dict[str, Any]:
    """A GetRecords record (as boto3 parses it) in the shape Lambda hands a handler; ``read_at``
    (epoch seconds) is when GetRecords returned it, to sharpen DynamoDB Local's minute-floored time."""
    record = dict(raw)
    stream = dict(raw["dynamodb"])
    created = stream.get("ApproximateCreationDateTime")
    if isinstance(created, datetime):
        floored = int(created.timestamp())
        if read_at is not None and floored % 60 == 0:
            floored = max(floored, min(int(read_at), floored + 59))
        stream["ApproximateCreationDateTime"] = floored
    for image in ("Keys", "NewImage", "OldImage"):
        if image in stream:
            stream[image] = {name: _attribute(value) for name, value in stream[image].items()}
    record["dynamodb"] = stream
    record["awsRegion"] = LOCAL_REGION
    record["eventSourceARN"] = event_source_arn
    if record.get("eventName") not in ("INSERT", "MODIFY", "REMOVE"):
        # DynamoDB Local reports a TTL deletion as UNKNOWN_TO_SDK_VERSION without userIdentity;
        # AWS sends REMOVE with the DynamoDB service as the identity.
        record["eventName"] = "REMOVE"
        record["userIdentity"] = dict(TTL_IDENTITY)
    return record


def aws_stream_arn(local_arn: str) -> str:
    """DynamoDB Local's stream ARN with the region and account the rest of the local cloud uses."""
    parts = local_arn.split(":", 5)
    parts[3], parts[4] = LOCAL_REGION, LOCAL_ACCOUNT
    return ":".join(parts)


def _attribute(value: dict[str, Any]) -> dict[str, Any]:
    ((kind, inner),) = value.items()
    if kind == "B":
        return {"B": base64.b64encode(inner).decode()}
    if kind == "BS":
        return {"BS": [base64.b64encode(item).decode() for item in inner]}
    if kind == "M":
        return {"M": {name: _attribute(item) for name, item in inner.items()}}
    if kind == "L":
        return {"L": [_attribute(item) for item in inner]}
    return {kind: inner}
