"""The adjacency list on DynamoDB Local: every read is one Query (of the table or the inverted GSI_1),
and its items read are exactly the invoice's partition or the customer's/bill's edges."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from types import ModuleType
from typing import Any

import pytest

from tatami_functions.invoices import service
from tatami_functions.invoices.exceptions import InvoiceConflictError, InvoiceNotFoundError
from tatami_functions.invoices.repository import InvoicesRepository
from tatami_functions.invoices.schemas import InvoiceIn
from tests.support.invoices_employees import Labs, served


@pytest.fixture
def table(labs: Labs) -> Iterator[ModuleType]:
    """The invoices service on the lab's table."""
    yield from served(service, InvoicesRepository, labs.invoices, labs)


def only_call(labs: Labs) -> Any:
    (call,) = labs.recorder.calls
    return call


def test_an_invoice_with_its_customer_and_bill_is_one_query(table: ModuleType, labs: Labs) -> None:
    invoice, stats = table.invoice("1420")  # the workshop's `query_invoiceandbilling.py ... 'I#1420'`
    assert invoice == {
        "invoice_id": "1420",
        "date": "2017-11-27",
        "due_date": "2017-12-17",
        "status": "Open",
        "balance": 8975039,
        "customer": {"customer_id": "1420", "name": "Gratia Belcher", "state": "MA"},
        "bills": [{"bill_id": "2823", "due_date": "2017-11-07", "amount": 592769, "balance": 8382270}],
    }
    call = only_call(labs)
    assert (call.operation, call.index) == ("Query", None)
    assert call.scanned == call.count == 3 == stats.items_read  # invoice, customer edge, bill edge


def test_an_invoice_with_two_bills(table: ModuleType, labs: Labs) -> None:
    invoice, _ = table.invoice("1249")
    assert [bill["bill_id"] for bill in invoice["bills"]] == ["2240", "3203"]
    assert only_call(labs).scanned == 4


def test_a_customers_invoices_come_from_the_inverted_index(table: ModuleType, labs: Labs) -> None:
    customer, page = table.related("customer", "1249", None, 25)  # the workshop's 'C#1249'
    assert customer == {"customer_id": "1249", "name": "Britte Rhubottom", "state": "NC"}  # the last billed
    assert [(i["invoice_id"], i["customer_name"]) for i in page.items] == [
        ("1249", "Britte Rhubottom"),
        ("661", "Andriana Gauvain"),  # as billed on that invoice
    ]
    assert page.cursor is None
    call = only_call(labs)
    assert (call.operation, call.index) == ("Query", "GSI_1")
    assert call.scanned == call.count == 3 == page.stats.items_read  # the customer and its two invoices


def test_a_bills_invoices_are_the_workshops_b3392(table: ModuleType, labs: Labs) -> None:
    bill, page = table.related("bill", "3392", None, 25)
    assert bill == {"bill_id": "3392", "due_date": "2017-02-09"}
    lines = {i["invoice_id"]: (i["amount"], i["balance"]) for i in page.items}
    assert lines == {"506": (383572, 5345699), "1721": (401844, 25408787), "390": (581765, 11588362)}
    call = only_call(labs)
    assert (call.operation, call.index, call.scanned) == ("Query", "GSI_1", 4)


def test_pages_of_a_customers_invoices(table: ModuleType, labs: Labs) -> None:
    customer, first = table.related("customer", "1249", None, 1)
    assert customer is not None and [i["invoice_id"] for i in first.items] == ["1249"]
    assert first.cursor is not None
    later, second = table.related("customer", "1249", first.cursor, 1)
    assert later is None and [i["invoice_id"] for i in second.items] == ["661"] and second.cursor is None
    assert [c.index for c in labs.recorder.calls] == ["GSI_1", "GSI_1"]


def test_a_put_replaces_the_edges_of_an_invoice(table: ModuleType) -> None:
    body: dict[str, Any] = {"customer": {"id": "c-old", "name": "Old", "state": "WA"}, "date": "2024-01-01"}
    body |= {"due_date": "2024-01-21", "status": "Open", "balance": "10.50"}
    body["bills"] = [{"bill_id": "b-1", "due_date": "2024-01-05", "amount": "1.25", "balance": "9.25"}]
    assert table.put("moving", InvoiceIn.model_validate(body))[0] is True
    body |= {"customer": {"id": "c-new", "name": "New", "state": "OR"}, "bills": []}
    created, invoice = table.put("moving", InvoiceIn.model_validate(body))
    assert created is False and invoice["customer"]["customer_id"] == "c-new" and invoice["bills"] == []
    assert table.invoice("moving")[1].items_read == 2  # the invoice and its one customer edge remain
    assert table.related("customer", "c-old", None, 25)[1].items == []  # no stale edge points here
    assert [i["invoice_id"] for i in table.related("customer", "c-new", None, 25)[1].items] == ["moving"]
    assert table.related("bill", "b-1", None, 25)[1].items == []
    assert table.invoice("moving")[0]["balance"] == Decimal("10.5")


def test_a_delete_removes_the_invoice_and_its_edges(table: ModuleType) -> None:
    body: dict[str, Any] = {"customer": {"id": "c-gone", "name": "G", "state": "WA"}, "date": "2024-02-01"}
    body |= {"due_date": "2024-02-02", "status": "Closed", "balance": 0}
    table.put("gone", InvoiceIn.model_validate(body))
    table.delete("gone")
    with pytest.raises(InvoiceNotFoundError):
        table.invoice("gone")
    customer, page = table.related("customer", "c-gone", None, 25)
    assert customer is not None and page.items == []  # the customer outlives its invoices
    with pytest.raises(InvoiceNotFoundError):
        table.delete("gone")


def test_concurrent_writers_cannot_interleave(table: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    body: dict[str, Any] = {"customer": {"id": "c-race", "name": "R", "state": "WA"}, "date": "2024-03-01"}
    body |= {"due_date": "2024-03-02", "status": "Open", "balance": 1}
    invoice = InvoiceIn.model_validate(body)
    table.put("race", invoice)
    repository = table.repository()
    read_before_the_other_writer = repository.owned("race")
    table.put("race", invoice)  # another writer got there first: version 2
    monkeypatch.setattr(repository, "owned", lambda _id: read_before_the_other_writer)
    with pytest.raises(InvoiceConflictError):
        table.put("race", invoice)


def test_unknown_ids_are_not_found(table: ModuleType) -> None:
    with pytest.raises(InvoiceNotFoundError):
        table.invoice("nope")
    with pytest.raises(InvoiceNotFoundError):
        table.related("customer", "nope", None, 25)
