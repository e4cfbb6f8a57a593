"""The labs' tables on DynamoDB Local, created from the CloudFormation their constructs synthesize.

The constructs are built in a stack of their own (never a second description of the tables), the
sample is loaded as the services write it, and every call of the client is recorded.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import pytest

from tatami_functions import stack_outputs
from tests.integration.labs.tables import create_lab_table
from tests.support.models_workshop import Recorder


@dataclass
class Labs:
    """The invoices and employees tables with the sample loaded, and a recorder on the client."""

    client: Any
    invoices: str
    employees: str
    recorder: Recorder


@contextmanager
def serving(service: ModuleType, repository: Any) -> Iterator[ModuleType]:
    """`service` (a service module) with `repository` as its function's one repository."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(service, "repository", lambda: repository)
        yield service


def served(
    service: ModuleType, make: Callable[[str, Any], Any], table: str, labs: Labs
) -> Iterator[ModuleType]:
    labs.recorder.clear()
    with serving(service, make(table, labs.client)) as bound:
        yield bound


@pytest.fixture(scope="session")
def labs(dynamodb_local: str) -> Labs:
    from tatami.local.engines.processes import processes as engines
    from tatami.samples.labs import employees, invoices, load_employees
    from tatami_functions.invoices import service
    from tatami_functions.invoices.repository import InvoicesRepository
    from tatami_functions.invoices.schemas import InvoiceIn

    client = engines.dynamodb_client(dynamodb_local)
    prefix = f"labs-{uuid.uuid4().hex[:6]}"
    built = Labs(
        client,
        create_lab_table(client, stack_outputs.OUTPUT_INVOICES_TABLE, prefix),
        create_lab_table(client, stack_outputs.OUTPUT_EMPLOYEES_TABLE, prefix),
        Recorder().attach(client),
    )
    with serving(service, InvoicesRepository(built.invoices, client=client)):
        for invoice in invoices():
            service.put(invoice.pop("id"), InvoiceIn.model_validate(invoice))
    load_employees(client, built.employees, employees())
    built.recorder.clear()
    return built
