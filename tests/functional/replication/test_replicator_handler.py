"""The replicator's Lambda entry point on moto: partial batch responses, records applied in order, a
record without its image parked (convergence is proven on DynamoDB Local, tests/integration/replication)."""

from __future__ import annotations

import json
from typing import Any

import boto3

from tests.support import invoices_employees_replication_moto
from tests.support.invoices_employees_replication_moto import CONTEXT

aws = invoices_employees_replication_moto.aws  # the module's moto and tables (autouse)


def stream_record(sequence: int, name: str, key: str, **image: Any) -> dict[str, Any]:
    stream: dict[str, Any] = {"Keys": {"PK": {"S": key}}, "SequenceNumber": str(sequence)}
    stream |= {"ApproximateCreationDateTime": 1_700_000_000, "StreamViewType": "NEW_IMAGE"}
    if image:
        stream["NewImage"] = {"PK": {"S": key}, **image}
    return {"eventID": str(sequence), "eventName": name, "eventSource": "aws:dynamodb", "dynamodb": stream}


def test_the_replicator_applies_in_order_and_refuses_the_past(aws: str) -> None:
    from tatami_functions.replication.handler import handler

    put = stream_record(100, "INSERT", "request#1", bytessent={"N": "1"})
    remove = stream_record(101, "REMOVE", "request#1")
    other = stream_record(102, "INSERT", "request#2", bytessent={"N": "2"})
    assert handler({"Records": [put, remove, other]}, CONTEXT) == {"batchItemFailures": []}
    assert handler({"Records": [put]}, CONTEXT) == {"batchItemFailures": []}  # late, and refused
    items = {i["PK"]["S"]: i for i in boto3.client("dynamodb").scan(TableName="labs-replica")["Items"]}
    assert "_rep_deleted" in items["request#1"] and items["request#2"]["bytessent"] == {"N": "2"}


def test_a_record_without_its_image_is_parked_not_retried(aws: str) -> None:
    from tatami_functions.replication.handler import handler

    broken = stream_record(200, "MODIFY", "request#3")  # a stream that shows keys only
    assert handler({"Records": [broken]}, CONTEXT) == {"batchItemFailures": []}
    (message,) = boto3.client("sqs").receive_message(QueueUrl=aws)["Messages"]
    assert json.loads(message["Body"])["keys"] == {"PK": {"S": "request#3"}}
