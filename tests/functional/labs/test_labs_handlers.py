"""The labs' Lambda entry points on moto: fast functional checks of the wiring (decorators, resolvers,
environment, partial batch responses). Nothing is measured here; reads and costs are proven on
DynamoDB Local (tests/integration/labs)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import boto3
import pytest

from tatami_functions.common import tokens
from tatami_functions.common.clients import aws_client
from tatami_functions.common.observability import metrics
from tatami_functions.common.repository import forget_instances
from tatami_functions.common.tokens import PageTokenSettings
from tatami_functions.employees.settings import EmployeesSettings
from tatami_functions.invoices.settings import InvoicesSettings
from tatami_functions.replication.settings import ReplicatorSettings
from tests.integration.labs.tables import lab_tables
from tests.support.lambda_runtime import FakeContext, api_event, moto_environment, status_and_body

# Names of their own: another module's moto may still be active (a session-scoped mock), sharing state.
TABLES = {  # stack output key -> the table's name here
    "InvoiceAndBillingTableName": "labs-invoices",
    "EmployeesTableName": "labs-employees",
    "LogfileReplicaTableName": "labs-replica",
}
ENV = {
    **InvoicesSettings.environment(table=TABLES["InvoiceAndBillingTableName"]),
    **EmployeesSettings.environment(table=TABLES["EmployeesTableName"]),
}
CONTEXT = FakeContext("labs")


def _reset() -> None:

    tokens._secret.cache_clear()
    aws_client.cache_clear()
    forget_instances()


@pytest.fixture(scope="module", autouse=True)
def aws() -> Iterator[str]:
    from tatami.local.engines.provision import create_table_request
    from tatami.local.template.assembly import TableSpec

    env = ENV | {"POWERTOOLS_TRACE_DISABLED": "true", "POWERTOOLS_METRICS_NAMESPACE": "Test"}
    with moto_environment(env):
        client = boto3.client("dynamodb")
        for output_key, name in TABLES.items():
            spec = TableSpec(output_key, name, lab_tables()[output_key])
            client.create_table(**create_table_request(spec))
        secret = boto3.client("secretsmanager").create_secret(Name="labs-page-tokens", SecretString="k" * 64)
        os.environ.update(PageTokenSettings.environment(secret_arn=secret["ARN"]))
        queue = boto3.client("sqs").create_queue(QueueName="labs-replication-failures")["QueueUrl"]
        replica = TABLES["LogfileReplicaTableName"]
        os.environ.update(ReplicatorSettings.environment(table=replica, failure_queue_url=queue))
        _reset()
        # Powertools reads the namespace when common.observability is first imported, which an
        # earlier test may have done without it; Lambda always has it (ServiceFunction sets it).
        namespace, metrics.namespace = metrics.namespace, "Test"
        yield queue
        metrics.namespace = namespace
    _reset()


def rest(handler: Any, method: str, path: str, body: Any = None, **query: str) -> tuple[int, Any]:
    return status_and_body(handler(api_event(method, path, body=body, query=query), CONTEXT))


def test_an_invoice_round_trip_through_the_handler() -> None:
    from tatami_functions.invoices.handler import handler

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
    from tatami_functions.employees.handler import handler

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
