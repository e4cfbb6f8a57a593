"""The labs' tables on DynamoDB Local, created from the CloudFormation their constructs synthesize.

The constructs are built in a stack of their own (never a second description of the tables), the
sample is loaded through the labs' repositories, and every call of the client is recorded.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

import pytest

from tatami_functions.common import stack_outputs
from tests.integration.labs.tables import create_lab_table
from tests.support.models_workshop import Recorder


@dataclass
class Labs:
    """The invoices and employees tables with the sample loaded, and a recorder on the client."""

    client: Any
    invoices: str
    employees: str
    recorder: Recorder


@pytest.fixture(scope="session")
def labs(dynamodb_local: str) -> Labs:
    from tatami.local.engines import processes as engines
    from tatami.samples.labs import employees, invoices
    from tatami_functions.labs.employees.repository import EmployeesTable
    from tatami_functions.labs.invoices.models import InvoiceIn
    from tatami_functions.labs.invoices.repository import InvoicesTable

    client = engines.dynamodb_client(dynamodb_local)
    prefix = f"labs-{uuid.uuid4().hex[:6]}"
    built = Labs(
        client,
        create_lab_table(client, stack_outputs.OUTPUT_INVOICES_TABLE, prefix),
        create_lab_table(client, stack_outputs.OUTPUT_EMPLOYEES_TABLE, prefix),
        Recorder().attach(client),
    )
    table = InvoicesTable(built.invoices, client=client)
    for invoice in invoices():
        table.put(invoice.pop("id"), InvoiceIn.model_validate(invoice))
    EmployeesTable(built.employees, client=client).load(employees())
    built.recorder.clear()
    return built
