"""The employees lab on DynamoDB Local with the workshop's 1,000 employees (4,000 items): each question
is one Query of the index the seed designs for it, reads only what it returns, and gives the
workshop's printed answers (WA 46, Software Engineer 18, Dale Marlin, Dallas 47, 84 managers)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from types import ModuleType
from typing import Any

import pytest

from tatami_functions.employees import service
from tatami_functions.employees.exceptions import EmployeeNotFoundError
from tatami_functions.employees.questions import plan
from tatami_functions.employees.repository import EmployeesRepository
from tatami_functions.employees.schemas import EmployeeIn
from tests.support.invoices_employees import Labs, served

SOFTWARE_ENGINEERS = [  # the workshop's `query_employees.py employees current_title 'Software Engineer'`
    ("Alice Beilby", "2014-11-03"), ("Anetta Byrne", "2017-03-15"), ("Ardis Panting", "2015-08-06"),
    ("Chris Randals", "2016-10-27"), ("Constantine Barendtsen", "2016-06-10"),
    ("Eudora Janton", "2015-01-05"), ("Florella Allsep", "2015-03-31"), ("Horatius Trangmar", "2013-10-21"),
    ("Korey Daugherty", "2016-11-03"), ("Lenka Luquet", "2014-10-01"), ("Leonora Hyland", "2016-06-14"),
    ("Lucretia Ruffell", "2015-07-04"), ("Malcolm Adiscot", "2014-04-17"), ("Melodie Sebire", "2013-08-27"),
    ("Menard Ogborn", "2014-06-27"), ("Merwyn Petters", "2014-06-19"), ("Niels Buston", "2014-10-30"),
    ("Noelani Studde", "2015-03-30"),
]  # fmt: skip


@pytest.fixture
def table(labs: Labs) -> Iterator[ModuleType]:
    """The employees service on the lab's table."""
    yield from served(service, EmployeesRepository, labs.employees, labs)


def one_query(labs: Labs, index: str, items: int) -> None:
    """The question was one Query of `index` that read exactly the items it returned."""
    (call,) = labs.recorder.calls
    assert (call.operation, call.index) == ("Query", index)
    assert call.scanned == call.count == items


def test_employees_of_a_state_by_name_from_the_overloaded_index(table: ModuleType, labs: Labs) -> None:
    page = table.find(plan(state="WA", sort="name"), None, 100)
    names = [hit["name"] for hit in page.items]
    assert len(names) == 46 and names == sorted(names)
    assert names[:5] == ["Alice Beilby", "Alla Absalom", "Alvan Heliar", "Anders Galtone", "Ashil Hutchin"]
    assert names[-3:] == ["Sula Prattin", "Vittoria Edelman", "Willie McCuthais"]
    assert page.items[0]["hire_date"] == "2014-12-03"
    one_query(labs, "GSI_1", 46)


def test_employees_by_current_title_from_the_overloaded_index(table: ModuleType, labs: Labs) -> None:
    page = table.find(plan(title="Software Engineer"), None, 100)
    assert [(hit["name"], hit["hire_date"]) for hit in page.items] == SOFTWARE_ENGINEERS
    one_query(labs, "GSI_1", 18)


def test_an_employee_by_name_from_the_overloaded_index(table: ModuleType, labs: Labs) -> None:
    (dale,) = table.find(plan(name="Dale Marlin"), None, 25).items
    assert (dale["employee_id"], dale["hire_date"], dale["is_manager"]) == (40, "2014-10-19", True)
    one_query(labs, "GSI_1", 1)


def test_the_composite_index_drills_down_state_city_department(table: ModuleType, labs: Labs) -> None:
    dallas = table.find(plan(state="TX", city="Dallas"), None, 100).items
    assert len(dallas) == 47  # the workshop's `query_city_dept.py employees TX --citydept Dallas`
    assert (dallas[0]["department"], dallas[-1]["department"]) == ("Development", "Support")
    assert {e["city"] for e in dallas} == {"Dallas"}
    one_query(labs, "GSI_3", 47)
    labs.recorder.clear()
    support = table.find(plan(state="TX", city="Dallas", department="Support"), None, 100).items
    assert {"Brittani Hunn", "Oby Peniello"} <= {e["name"] for e in support}  # the workshop's last two
    assert {(e["city"], e["department"]) for e in support} == {("Dallas", "Support")}
    one_query(labs, "GSI_3", len(support))
    labs.recorder.clear()
    texas = table.find(plan(state="TX"), None, 100)
    assert len(texas.items) == 100 and texas.cursor is not None  # Texas has more than a page
    cities = [e["city"] for e in texas.items]
    assert cities == sorted(cities)  # the sort key orders a state by city, then department


def test_managers_come_from_the_sparse_index_alone(table: ModuleType, labs: Labs) -> None:
    page = table.managers(None, 100)
    assert len(page.items) == 84 and all(e["is_manager"] for e in page.items)
    one_query(labs, "GSI_2", 84)
    # The lab's contrast: a Scan of the table with a filter reads all 4,000 items to find the 84.
    scanned = count = 0
    request: dict[str, Any] = {"TableName": labs.employees, "FilterExpression": "is_manager = :one"}
    request["ExpressionAttributeValues"] = {":one": {"S": "1"}}
    while True:
        response = labs.client.scan(**request)
        scanned, count = scanned + response["ScannedCount"], count + response["Count"]
        if "LastEvaluatedKey" not in response:
            break
        request["ExclusiveStartKey"] = response["LastEvaluatedKey"]
    assert (scanned, count) == (4000, 84)
    index_scan = labs.client.scan(TableName=labs.employees, IndexName="GSI_2")
    assert index_scan["ScannedCount"] == 84  # even a Scan of the sparse index reads managers only


def test_an_employee_is_one_getitem(table: ModuleType, labs: Labs) -> None:
    employee, stats = table.employee(40)
    assert employee["name"] == "Dale Marlin" and employee["department"] == "Support"
    assert employee["city"] == "Chicago" and stats.items_read == 1
    assert labs.recorder.operations() == [("GetItem", None)]
    with pytest.raises(EmployeeNotFoundError):
        table.employee(999_999)


def test_a_put_moves_an_employee_between_index_entries(table: ModuleType) -> None:
    employee = EmployeeIn(
        name="Zed Mover",
        title="Programmer",
        department="Development",
        city="Austin",
        state="TX",
        hire_date=date(2020, 1, 1),
        previous_title="Intern",
        previous_title_end=date(2019, 12, 31),
    )
    assert table.put(5001, employee)[0] is True
    moved = employee.model_copy(update={"title": "Architect", "state": "WA", "city": "Seattle"})
    moved = moved.model_copy(update={"previous_title": None, "previous_title_end": None, "is_manager": True})
    created, view = table.put(5001, moved)
    assert created is False and view["is_manager"] is True and "previous_title" not in view
    assert [e["name"] for e in table.find(plan(title="Programmer"), None, 100).items].count("Zed Mover") == 0
    assert "Zed Mover" in [e["name"] for e in table.find(plan(title="Architect"), None, 100).items]
    assert "Zed Mover" not in [e["name"] for e in table.find(plan(previous_title="Intern"), None, 100).items]
    seattle = table.find(plan(state="WA", city="Seattle", department="Development"), None, 100).items
    assert "Zed Mover" in [e["name"] for e in seattle]
    assert "Zed Mover" in [e["name"] for e in table.managers(None, 100).items]
    table.delete(5001)
    assert "Zed Mover" not in [e["name"] for e in table.managers(None, 100).items]
    with pytest.raises(EmployeeNotFoundError):
        table.delete(5001)
