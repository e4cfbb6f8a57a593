"""The invoices routes over real HTTP on the app's local cloud, with the sample loaded as `make run`
loads it: each answer and what it cost (one Query or GetItem, and the items it read)."""

from __future__ import annotations

from typing import Any

from tests.support.invoices_employees import call, get, one_read


def test_get_invoice_is_one_query_of_its_partition(labs_api: str) -> None:
    body = get(labs_api, "/invoices/1420")
    assert body["customer"] == {"customer_id": "1420", "name": "Gratia Belcher", "state": "MA"}
    (bill,) = body["bills"]
    assert bill == {"bill_id": "2823", "due_date": "2017-11-07", "amount": 592769, "balance": 8382270}
    one_read(body, 3)
    assert call(labs_api, "GET", "/invoices/404").status_code == 404


def test_get_customer_invoices_is_one_query_of_the_inverted_index(labs_api: str) -> None:
    body = get(labs_api, "/customers/1249/invoices")
    assert body["customer"]["name"] == "Britte Rhubottom"
    assert [i["invoice_id"] for i in body["items"]] == ["1249", "661"] and body["next"] is None
    one_read(body, 3)
    first = get(labs_api, "/customers/1249/invoices", limit=1)
    second = get(labs_api, "/customers/1249/invoices", limit=1, next=first["next"])
    assert [i["invoice_id"] for i in first["items"] + second["items"]] == ["1249", "661"]
    stolen = call(labs_api, "GET", "/customers/1420/invoices", limit=1, next=first["next"])
    assert stolen.status_code == 400 and stolen.json()["message"].startswith("next:")


def test_get_bill_lists_the_invoices_it_covers(labs_api: str) -> None:
    body = get(labs_api, "/bills/3392")
    amounts = {i["invoice_id"]: i["amount"] for i in body["items"]}
    assert amounts == {"506": 383572, "1721": 401844, "390": 581765}
    one_read(body, 4)


def test_put_then_delete_an_invoice(labs_api: str) -> None:
    invoice: dict[str, Any] = {"customer": {"id": "http-c", "name": "H", "state": "WA"}, "date": "2024-05-01"}
    invoice |= {"due_date": "2024-05-21", "status": "Open", "balance": 12.5}
    invoice["bills"] = [{"bill_id": "http-b", "due_date": "2024-05-02", "amount": 2.5, "balance": 10}]
    created = call(labs_api, "PUT", "/invoices/http-1", invoice)
    assert created.status_code == 201 and created.json()["bills"][0]["amount"] == 2.5
    assert call(labs_api, "PUT", "/invoices/http-1", invoice).status_code == 200
    assert [i["invoice_id"] for i in get(labs_api, "/bills/http-b")["items"]] == ["http-1"]
    bad = call(labs_api, "PUT", "/invoices/http-1", {**invoice, "due_date": "2024-04-01"})
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "due_date"
    assert call(labs_api, "DELETE", "/invoices/http-1").status_code == 204
    assert call(labs_api, "GET", "/invoices/http-1").status_code == 404
