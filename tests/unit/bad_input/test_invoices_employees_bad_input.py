"""The labs' routes refuse bad input with a 400 naming the field, before touching DynamoDB.

The handlers run in-process (Powertools resolves a REST proxy event); the tables named do not
exist, so a request that got past validation would fail with something other than a 400.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tatami_functions.common import paging, tokens
from tatami_functions.common.repository import forget_instances
from tatami_functions.common.tokens import encode_token
from tatami_functions.employees.api import app as employees
from tatami_functions.employees.settings import EmployeesSettings
from tatami_functions.invoices.api import app as invoices
from tatami_functions.invoices.settings import InvoicesSettings
from tests.support.lambda_runtime import assert_400_naming, resolve

FORGED = "eyJQSyI6IkMjMSJ9.AAAA"
CUSTOMER = {"id": "c1", "name": "N", "state": "WA"}
INVOICE: dict[str, Any] = {"customer": CUSTOMER, "date": "2024-01-01", "due_date": "2024-01-21"}
INVOICE |= {"status": "Open", "balance": 1}
BILL = {"bill_id": "b1", "due_date": "2024-01-02", "amount": 1, "balance": 0}
EMPLOYEE = {"name": "N", "title": "T", "department": "D", "city": "C", "state": "WA"}
EMPLOYEE["hire_date"] = "2020-01-01"


@pytest.fixture(autouse=True)
def _environment(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(InvoicesSettings.name_of("table"), "no-such-table")
    monkeypatch.setenv(EmployeesSettings.name_of("table"), "no-such-table")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    monkeypatch.setattr(tokens, "_secret", lambda: b"unit-test-key")
    forget_instances()  # the tables built here name no real table: drop them afterwards
    yield
    forget_instances()


CASES = [
    (invoices, "GET", "/invoices/a b", None, None, "id"),
    (invoices, "GET", "/invoices/I%231", None, None, "id"),  # "I#1" as API Gateway passes it
    (invoices, "PUT", "/invoices/1", None, {**INVOICE, "status": "Paid"}, "status"),
    (invoices, "PUT", "/invoices/1", None, {**INVOICE, "due_date": "2023-12-31"}, "due_date"),
    (invoices, "PUT", "/invoices/1", None, {**INVOICE, "balance": -1}, "balance"),
    (invoices, "PUT", "/invoices/1", None, {**INVOICE, "balance": "1.234"}, "balance"),
    (invoices, "PUT", "/invoices/1", None, {**INVOICE, "customer": {**CUSTOMER, "id": "c#1"}}, "customer.id"),
    (invoices, "PUT", "/invoices/1", None, {**INVOICE, "bills": [BILL, BILL]}, "bills"),
    (invoices, "PUT", "/invoices/1", None, {**INVOICE, "bills": [{**BILL, "amount": "x"}]}, "bills.amount"),
    (invoices, "PUT", "/invoices/1", None, {**INVOICE, "bills": [BILL] * 21}, "bills"),
    (invoices, "PUT", "/invoices/1", None, {**INVOICE, "discount": 3}, "discount"),
    (invoices, "PUT", "/invoices/1", None, "{not json", "body"),
    (invoices, "DELETE", "/invoices/a b", None, None, "id"),
    (invoices, "GET", "/customers/1249/invoices", {"limit": "0"}, None, "limit"),
    (invoices, "GET", "/customers/1249/invoices", {"next": FORGED}, None, "next"),
    (invoices, "GET", "/bills/3392", {"limit": "1001"}, None, "limit"),
    (invoices, "GET", "/bills/3392", {"next": FORGED}, None, "next"),
    (employees, "GET", "/employees", {"city": "Dallas"}, None, "city"),
    (employees, "GET", "/employees", {"department": "Support"}, None, "department"),
    (employees, "GET", "/employees", {"state": "TX", "department": "Support"}, None, "department"),
    (employees, "GET", "/employees", {"title": "Developer", "state": "TX"}, None, "state"),
    (employees, "GET", "/employees", {"name": "Dale Marlin", "title": "Developer"}, None, "title"),
    (employees, "GET", "/employees", {"title": "Developer", "sort": "name"}, None, "sort"),
    (employees, "GET", "/employees", {"state": "TX", "city": "Dallas", "sort": "name"}, None, "sort"),
    (employees, "GET", "/employees", {"sort": "age"}, None, "sort"),
    (employees, "GET", "/employees", {"state": "T#X"}, None, "state"),
    (employees, "GET", "/employees", {"limit": "0"}, None, "limit"),
    (employees, "GET", "/employees", {"next": FORGED}, None, "next"),
    (employees, "GET", "/employees/managers", {"next": FORGED}, None, "next"),
    (employees, "GET", "/employees/abc", None, None, "id"),
    (employees, "GET", "/employees/0", None, None, "id"),
    (employees, "PUT", "/employees/1", None, {**EMPLOYEE, "city": "Da#llas"}, "city"),
    (employees, "PUT", "/employees/1", None, {**EMPLOYEE, "hire_date": "yesterday"}, "hire_date"),
    (employees, "PUT", "/employees/1", None, {k: v for k, v in EMPLOYEE.items() if k != "title"}, "title"),
    (employees, "PUT", "/employees/1", None, {**EMPLOYEE, "is_manager": "maybe"}, "is_manager"),
    (employees, "PUT", "/employees/1", None, {**EMPLOYEE, "salary": 1}, "salary"),
    (employees, "DELETE", "/employees/-3", None, None, "id"),
]


@pytest.mark.parametrize(("app", "method", "path", "query", "body", "field"), CASES)
def test_bad_input_is_a_400_naming_the_field(
    app: Any, method: str, path: str, query: dict[str, str] | None, body: Any, field: str
) -> None:
    assert_400_naming(*resolve(app, method, path, query=query, body=body), field)


@pytest.mark.parametrize(
    ("app", "path", "query", "issued_for"),
    [
        (invoices, "/customers/1420/invoices", {}, paging.scope("invoices.customer", id="1249")),
        (invoices, "/bills/3392", {}, paging.scope("invoices.customer", id="3392")),
        (employees, "/employees", {"state": "WA"}, paging.scope("employees.managers")),
    ],
)
def test_a_genuine_token_for_another_query_is_refused(
    app: Any, path: str, query: dict[str, str], issued_for: str
) -> None:
    token = encode_token({"PK": {"S": "x"}, "SK": {"S": "y"}}, issued_for)  # signed, but for another query
    status, body = resolve(app, "GET", path, query={**query, "next": token})
    assert status == 400
    assert body["message"].startswith("next:")
