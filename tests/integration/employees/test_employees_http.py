"""The employees routes over real HTTP on the app's local cloud, with the sample loaded as `make run`
loads it: each answer and what it cost (one Query or GetItem, and the items it read)."""

from __future__ import annotations

from typing import Any

from tests.support.invoices_employees import call, get, one_read


def test_find_employees_by_state_city_and_department(labs_api: str) -> None:
    dallas = get(labs_api, "/employees", state="TX", city="Dallas", limit=100)
    assert len(dallas["items"]) == 47 and dallas["next"] is None
    one_read(dallas, 47)
    support = get(labs_api, "/employees", state="TX", city="Dallas", department="Support", limit=100)
    assert {e["department"] for e in support["items"]} == {"Support"}
    one_read(support, len(support["items"]))
    texas = get(labs_api, "/employees", state="TX", limit=100)
    assert texas["next"] and len(texas["items"]) == 100
    one_read(texas, 101)  # a page reads one more item to know whether another page follows


def test_find_employees_through_the_overloaded_index(labs_api: str) -> None:
    engineers = get(labs_api, "/employees", title="Software Engineer", limit=100)
    assert len(engineers["items"]) == 18 and engineers["items"][0]["name"] == "Alice Beilby"
    one_read(engineers, 18)
    washington = get(labs_api, "/employees", state="WA", sort="name", limit=100)
    assert len(washington["items"]) == 46
    dale = get(labs_api, "/employees", name="Dale Marlin")
    assert [e["hire_date"] for e in dale["items"]] == ["2014-10-19"]
    everyone = get(labs_api, "/employees", limit=10)
    names = [e["name"] for e in everyone["items"]]
    assert names == sorted(names) and everyone["next"]


def test_managers_from_the_sparse_index(labs_api: str) -> None:
    body = get(labs_api, "/employees/managers", limit=100)
    assert len(body["items"]) == 84 and all(e["is_manager"] for e in body["items"])
    one_read(body, 84)


def test_get_put_delete_an_employee(labs_api: str) -> None:
    dale = get(labs_api, "/employees/40")
    assert (dale["name"], dale["title"]) == ("Dale Marlin", "IT Support Manager")
    assert dale["stats"]["items_read"] == 1
    assert call(labs_api, "GET", "/employees/999999").status_code == 404
    body: dict[str, Any] = {"name": "Http Person", "title": "Tester", "department": "QA", "city": "Boston"}
    body |= {"state": "MA", "hire_date": "2024-01-02", "is_manager": True}
    assert call(labs_api, "PUT", "/employees/7001", body).status_code == 201
    assert "Http Person" in [e["name"] for e in get(labs_api, "/employees/managers", limit=100)["items"]]
    assert call(labs_api, "DELETE", "/employees/7001").status_code == 204
    bad = call(labs_api, "GET", "/employees", city="Dallas")
    assert bad.status_code == 400 and bad.json()["message"].startswith("city:")
