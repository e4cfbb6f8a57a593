"""The invoices, employees and replication functions on moto with their tables, secret and failure queue
(a module-scoped autouse fixture: a test module imports `aws`), and how a test calls a route."""

from __future__ import annotations

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
from tests.support.lambda_runtime import FakeContext, api_event, moto_environment, status_and_body
from tests.support.service_tables import lab_tables

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
