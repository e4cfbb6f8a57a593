"""The employees function's Lambda entry point on moto: a fast check of its wiring (reads and costs are
proven on DynamoDB Local, tests/integration/employees)."""

from __future__ import annotations

from typing import Any

from tests.support import invoices_employees_replication_moto
from tests.support.invoices_employees_replication_moto import rest

aws = invoices_employees_replication_moto.aws  # the module's moto and tables (autouse)


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
