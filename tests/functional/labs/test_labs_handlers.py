"""The labs' Lambda entry points on moto: fast functional checks of the wiring (decorators, resolvers,
environment, partial batch responses). Nothing is measured here; reads and costs are proven on
DynamoDB Local (tests/integration/labs)."""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from unittest import mock

import boto3
import pytest
from moto import mock_aws

import common.tokens
from common.observability import metrics
from models import listing
from tests.integration.labs.tables import lab_tables

# Names of their own: another module's moto may still be active (a session-scoped mock), sharing state.
ENV = {"INVOICES_TABLE": "labs-invoices", "EMPLOYEES_TABLE": "labs-employees"}
ENV["REPLICA_TABLE"] = "labs-replica"
OUTPUTS = {
    "INVOICES_TABLE": "InvoiceAndBillingTableName",
    "EMPLOYEES_TABLE": "EmployeesTableName",
    "REPLICA_TABLE": "LogfileReplicaTableName",
}


@dataclass
class Context:
    function_name: str = "labs"
    memory_limit_in_mb: int = 512
    invoked_function_arn: str = "arn:aws:lambda:us-east-1:123456789012:function:labs"
    aws_request_id: str = "req"

    def get_remaining_time_in_millis(self) -> int:
        return 10_000


def _reset() -> None:
    import labs.employees.repository as employees
    import labs.invoices.repository as invoices
    import labs.replication.parking as parking
    import labs.replication.repository as replica

    common.tokens._secret.cache_clear()
    listing.default_client.cache_clear()
    replica.default_client.cache_clear()
    parking._client.cache_clear()
    for module in (invoices, employees, replica):
        module._default = None  # type: ignore[attr-defined]


@pytest.fixture(scope="module", autouse=True)
def aws() -> Iterator[str]:
    from tatami.local.assembly import TableSpec
    from tatami.local.provision import create_table_request

    env = {"AWS_DEFAULT_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": "t", "AWS_SECRET_ACCESS_KEY": "t"}
    env |= ENV | {"POWERTOOLS_TRACE_DISABLED": "true", "POWERTOOLS_METRICS_NAMESPACE": "Test"}
    with mock.patch.dict(os.environ, env), mock_aws():
        client = boto3.client("dynamodb")
        for variable, output_key in OUTPUTS.items():
            spec = TableSpec(output_key, ENV[variable], lab_tables()[output_key])
            client.create_table(**create_table_request(spec))
        secret = boto3.client("secretsmanager").create_secret(Name="labs-page-tokens", SecretString="k" * 64)
        os.environ["PAGE_TOKEN_SECRET_ARN"] = secret["ARN"]
        queue = boto3.client("sqs").create_queue(QueueName="labs-replication-failures")["QueueUrl"]
        os.environ["REPLICATION_FAILURE_QUEUE_URL"] = queue
        _reset()
        # Powertools reads the namespace when common.observability is first imported, which an
        # earlier test may have done without it; Lambda always has it (ServiceFunction sets it).
        namespace, metrics.namespace = metrics.namespace, "Test"
        yield queue
        metrics.namespace = namespace
    _reset()


def rest(handler: Any, method: str, path: str, body: Any = None, **query: str) -> tuple[int, Any]:
    event = {
        "resource": path,
        "path": path,
        "httpMethod": method,
        "headers": {"Content-Type": "application/json"},
        "queryStringParameters": query or None,
        "multiValueQueryStringParameters": {k: [v] for k, v in query.items()} or None,
        "body": json.dumps(body) if body is not None else None,
        "requestContext": {"requestId": uuid.uuid4().hex, "stage": "v1"},
    }
    response = handler(event, Context())
    return response["statusCode"], json.loads(response["body"]) if response.get("body") else None


def test_an_invoice_round_trip_through_the_handler() -> None:
    from labs.invoices.handler import handler

    invoice: dict[str, Any] = {"customer": {"id": "7", "name": "Max", "state": "CA"}, "date": "2024-01-01"}
    invoice |= {"due_date": "2024-01-21", "status": "Open", "balance": 10}
    invoice["bills"] = [{"bill_id": "9", "due_date": "2024-01-02", "amount": 4, "balance": 6}]
    assert rest(handler, "PUT", "/invoices/1", invoice)[0] == 201
    status, body = rest(handler, "GET", "/invoices/1")
    assert status == 200 and body["bills"][0]["bill_id"] == "9" and body["stats"]["queries"] == 1
    status, body = rest(handler, "GET", "/customers/7/invoices")
    assert status == 200 and body["customer"]["name"] == "Max"
    assert [i["invoice_id"] for i in body["items"]] == ["1"]
    assert rest(handler, "GET", "/bills/9")[1]["bill"] == {"bill_id": "9", "due_date": "2024-01-02"}
    assert rest(handler, "DELETE", "/invoices/1")[0] == 204
    assert rest(handler, "GET", "/invoices/1")[0] == 404
    assert rest(handler, "GET", "/customers/nobody/invoices")[0] == 404


def test_an_employee_round_trip_through_the_handler() -> None:
    from labs.employees.handler import handler

    employee: dict[str, Any] = {"name": "Ann", "title": "Developer", "department": "Development"}
    employee |= {"city": "Austin", "state": "TX", "hire_date": "2020-02-03", "is_manager": True}
    assert rest(handler, "PUT", "/employees/3", employee)[0] == 201
    assert rest(handler, "PUT", "/employees/3", employee)[0] == 200
    assert rest(handler, "GET", "/employees/3")[1]["name"] == "Ann"
    status, body = rest(handler, "GET", "/employees", state="TX", city="Austin")
    assert status == 200 and [e["name"] for e in body["items"]] == ["Ann"]
    assert [e["name"] for e in rest(handler, "GET", "/employees/managers")[1]["items"]] == ["Ann"]
    assert [e["name"] for e in rest(handler, "GET", "/employees", title="Developer")[1]["items"]] == ["Ann"]
    assert rest(handler, "DELETE", "/employees/3")[0] == 204
    assert rest(handler, "GET", "/employees/3")[0] == 404


def stream_record(sequence: int, name: str, key: str, **image: Any) -> dict[str, Any]:
    stream: dict[str, Any] = {"Keys": {"PK": {"S": key}}, "SequenceNumber": str(sequence)}
    stream |= {"ApproximateCreationDateTime": 1_700_000_000, "StreamViewType": "NEW_IMAGE"}
    if image:
        stream["NewImage"] = {"PK": {"S": key}, **image}
    return {"eventID": str(sequence), "eventName": name, "eventSource": "aws:dynamodb", "dynamodb": stream}


def test_the_replicator_applies_in_order_and_refuses_the_past(aws: str) -> None:
    from labs.replication.handler import handler

    put = stream_record(100, "INSERT", "request#1", bytessent={"N": "1"})
    remove = stream_record(101, "REMOVE", "request#1")
    other = stream_record(102, "INSERT", "request#2", bytessent={"N": "2"})
    assert handler({"Records": [put, remove, other]}, Context()) == {"batchItemFailures": []}
    assert handler({"Records": [put]}, Context()) == {"batchItemFailures": []}  # late, and refused
    items = {i["PK"]["S"]: i for i in boto3.client("dynamodb").scan(TableName="labs-replica")["Items"]}
    assert "_rep_deleted" in items["request#1"] and items["request#2"]["bytessent"] == {"N": "2"}


def test_a_record_without_its_image_is_parked_not_retried(aws: str) -> None:
    from labs.replication.handler import handler

    broken = stream_record(200, "MODIFY", "request#3")  # a stream that shows keys only
    assert handler({"Records": [broken]}, Context()) == {"batchItemFailures": []}
    (message,) = boto3.client("sqs").receive_message(QueueUrl=aws)["Messages"]
    assert json.loads(message["Body"])["keys"] == {"PK": {"S": "request#3"}}
