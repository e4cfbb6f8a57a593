"""The labs' routes over real HTTP on the app's local cloud, with the sample loaded as `make run` loads it.

One test per route checks the workshop's answer and what it cost (one Query or GetItem, and the items
it read); which index each read uses is proven at the DynamoDB level (test_*_dynamodb.py).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest
import requests

from tatami.local.cloud import LocalCloud
from tatami.samples import labs


@pytest.fixture(scope="module")
def api(app_cloud: LocalCloud) -> str:
    summary = labs.load(app_cloud, lambda done, total: None)
    assert summary.startswith("11 invoices, 1,000 employees (4,000 items), 200 log lines")
    return app_cloud.api_url


def call(api: str, method: str, path: str, body: Any = None, **query: Any) -> requests.Response:
    return requests.request(method, api + quote(path), json=body, params=query, timeout=30)


def get(api: str, path: str, **query: Any) -> dict[str, Any]:
    response = call(api, "GET", path, **query)
    assert response.status_code == 200, response.text
    return dict(response.json())


def one_read(body: dict[str, Any], items: int) -> None:
    assert body["stats"]["queries"] == 1 and body["stats"]["items_read"] == items, body["stats"]


# -- invoices ---------------------------------------------------------------------------------------
def test_get_invoice_is_one_query_of_its_partition(api: str) -> None:
    body = get(api, "/invoices/1420")
    assert body["customer"] == {"customer_id": "1420", "name": "Gratia Belcher", "state": "MA"}
    (bill,) = body["bills"]
    assert bill == {"bill_id": "2823", "due_date": "2017-11-07", "amount": 592769, "balance": 8382270}
    one_read(body, 3)
    assert call(api, "GET", "/invoices/404").status_code == 404


def test_get_customer_invoices_is_one_query_of_the_inverted_index(api: str) -> None:
    body = get(api, "/customers/1249/invoices")
    assert body["customer"]["name"] == "Britte Rhubottom"
    assert [i["invoice_id"] for i in body["items"]] == ["1249", "661"] and body["next"] is None
    one_read(body, 3)
    first = get(api, "/customers/1249/invoices", limit=1)
    second = get(api, "/customers/1249/invoices", limit=1, next=first["next"])
    assert [i["invoice_id"] for i in first["items"] + second["items"]] == ["1249", "661"]
    stolen = call(api, "GET", "/customers/1420/invoices", limit=1, next=first["next"])
    assert stolen.status_code == 400 and stolen.json()["message"].startswith("next:")


def test_get_bill_lists_the_invoices_it_covers(api: str) -> None:
    body = get(api, "/bills/3392")
    amounts = {i["invoice_id"]: i["amount"] for i in body["items"]}
    assert amounts == {"506": 383572, "1721": 401844, "390": 581765}
    one_read(body, 4)


def test_put_then_delete_an_invoice(api: str) -> None:
    invoice: dict[str, Any] = {"customer": {"id": "http-c", "name": "H", "state": "WA"}, "date": "2024-05-01"}
    invoice |= {"due_date": "2024-05-21", "status": "Open", "balance": 12.5}
    invoice["bills"] = [{"bill_id": "http-b", "due_date": "2024-05-02", "amount": 2.5, "balance": 10}]
    created = call(api, "PUT", "/invoices/http-1", invoice)
    assert created.status_code == 201 and created.json()["bills"][0]["amount"] == 2.5
    assert call(api, "PUT", "/invoices/http-1", invoice).status_code == 200
    assert [i["invoice_id"] for i in get(api, "/bills/http-b")["items"]] == ["http-1"]
    bad = call(api, "PUT", "/invoices/http-1", {**invoice, "due_date": "2024-04-01"})
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "due_date"
    assert call(api, "DELETE", "/invoices/http-1").status_code == 204
    assert call(api, "GET", "/invoices/http-1").status_code == 404


# -- employees --------------------------------------------------------------------------------------
def test_find_employees_by_state_city_and_department(api: str) -> None:
    dallas = get(api, "/employees", state="TX", city="Dallas", limit=100)
    assert len(dallas["items"]) == 47 and dallas["next"] is None
    one_read(dallas, 47)
    support = get(api, "/employees", state="TX", city="Dallas", department="Support", limit=100)
    assert {e["department"] for e in support["items"]} == {"Support"}
    one_read(support, len(support["items"]))
    texas = get(api, "/employees", state="TX", limit=100)
    assert texas["next"] and len(texas["items"]) == 100
    one_read(texas, 101)  # a page reads one more item to know whether another page follows


def test_find_employees_through_the_overloaded_index(api: str) -> None:
    engineers = get(api, "/employees", title="Software Engineer", limit=100)
    assert len(engineers["items"]) == 18 and engineers["items"][0]["name"] == "Alice Beilby"
    one_read(engineers, 18)
    washington = get(api, "/employees", state="WA", sort="name", limit=100)
    assert len(washington["items"]) == 46
    dale = get(api, "/employees", name="Dale Marlin")
    assert [e["hire_date"] for e in dale["items"]] == ["2014-10-19"]
    everyone = get(api, "/employees", limit=10)
    names = [e["name"] for e in everyone["items"]]
    assert names == sorted(names) and everyone["next"]


def test_managers_from_the_sparse_index(api: str) -> None:
    body = get(api, "/employees/managers", limit=100)
    assert len(body["items"]) == 84 and all(e["is_manager"] for e in body["items"])
    one_read(body, 84)


def test_get_put_delete_an_employee(api: str) -> None:
    dale = get(api, "/employees/40")
    assert (dale["name"], dale["title"]) == ("Dale Marlin", "IT Support Manager")
    assert dale["stats"]["items_read"] == 1
    assert call(api, "GET", "/employees/999999").status_code == 404
    body: dict[str, Any] = {"name": "Http Person", "title": "Tester", "department": "QA", "city": "Boston"}
    body |= {"state": "MA", "hire_date": "2024-01-02", "is_manager": True}
    assert call(api, "PUT", "/employees/7001", body).status_code == 201
    assert "Http Person" in [e["name"] for e in get(api, "/employees/managers", limit=100)["items"]]
    assert call(api, "DELETE", "/employees/7001").status_code == 204
    bad = call(api, "GET", "/employees", city="Dallas")
    assert bad.status_code == 400 and bad.json()["message"].startswith("city:")


def test_the_openapi_document_lists_the_labs_routes(api: str) -> None:
    paths = get(api, "/openapi.json")["paths"]
    labs = ("/invoices/{id}", "/customers/{id}/invoices", "/bills/{id}", "/employees", "/employees/managers")
    assert set(labs) <= set(paths)
    assert set(paths["/employees/{id}"]) == {"get", "put", "delete"}
