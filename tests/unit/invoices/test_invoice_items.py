"""The adjacency list's items and views, and the invoice body's validation, without DynamoDB."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from tatami_functions.common.attribute_values import low_level
from tatami_functions.invoices.adjacency import invoice_items, invoice_view, split_related
from tatami_functions.invoices.schemas import InvoiceIn

BODY: dict[str, Any] = {
    "customer": {"id": "1249", "name": "Britte Rhubottom", "state": "NC"},
    "date": "2017-04-20",
    "due_date": "2017-05-10",
    "status": "Cancelled",
    "balance": "12952491.00",
    "bills": [
        {"bill_id": "2240", "due_date": "2017-05-22", "amount": "187459.00", "balance": "5715775.00"},
        {"bill_id": "3203", "due_date": "2017-03-31", "amount": "606233.00", "balance": "12346258.00"},
    ],
}


def test_a_put_writes_the_invoice_its_edges_and_the_entities_they_point_at() -> None:
    items = invoice_items("1249", InvoiceIn.model_validate(BODY), version=3)
    assert [(i["PK"], i["SK"], i["type"]) for i in items] == [
        ("I#1249", "I#1249", "invoice"),
        ("I#1249", "C#1249", "invoice_customer"),
        ("C#1249", "C#1249", "customer"),
        ("I#1249", "B#2240", "invoice_bill"),
        ("B#2240", "B#2240", "bill"),
        ("I#1249", "B#3203", "invoice_bill"),
        ("B#3203", "B#3203", "bill"),
    ]
    assert items[0]["version"] == 3 and items[1]["status"] == "Cancelled"  # the edge carries the summary


def test_an_invoice_is_read_back_from_its_partition() -> None:
    written = invoice_items("1249", InvoiceIn.model_validate(BODY), 1)
    items = [low_level(item) for item in written if item["PK"] == "I#1249"]
    view = invoice_view(items)
    assert view is not None
    assert view["customer"] == {"customer_id": "1249", "name": "Britte Rhubottom", "state": "NC"}
    assert [(b["bill_id"], b["amount"]) for b in view["bills"]] == [("2240", 187459), ("3203", 606233)]
    assert "version" not in view and "PK" not in view
    assert invoice_view(items[1:]) is None  # edges without the invoice: no invoice


def test_the_inverted_index_separates_the_entity_from_its_edges() -> None:
    items = [low_level(i) for i in invoice_items("1249", InvoiceIn.model_validate(BODY), 1)]
    by_customer = [i for i in items if i["SK"]["S"] == "C#1249"]
    customer, edges = split_related(by_customer, "C#1249")
    assert customer == {"customer_id": "1249", "name": "Britte Rhubottom", "state": "NC"}
    assert [edge["invoice_id"] for edge in edges] == ["1249"]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"due_date": "2017-04-19"}, "due_date"),
        ({"bills": [BODY["bills"][0], BODY["bills"][0]]}, "bills"),
        ({"balance": "0.001"}, "balance"),
        ({"status": "Paid"}, "status"),
    ],
)
def test_invalid_invoices_name_the_field(change: dict[str, object], field: str) -> None:
    with pytest.raises(ValidationError) as raised:
        InvoiceIn.model_validate(BODY | change)
    assert raised.value.errors()[0]["loc"][0] == field
