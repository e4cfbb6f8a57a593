"""The invoices function's Lambda entry point on moto: a fast check of its wiring (reads and costs are
proven on DynamoDB Local, tests/integration/invoices)."""

from __future__ import annotations

from typing import Any

from tests.support import invoices_employees_replication_moto
from tests.support.invoices_employees_replication_moto import rest

aws = invoices_employees_replication_moto.aws  # the module's moto and tables (autouse)


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
