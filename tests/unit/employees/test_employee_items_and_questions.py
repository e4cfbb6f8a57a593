"""The employees service's key design and question planning, without DynamoDB."""

from __future__ import annotations

from datetime import date

import pytest

from tatami_functions.common.attribute_values import low_level
from tatami_functions.common.tables import IndexSchema
from tatami_functions.employees.exceptions import QuestionError
from tatami_functions.employees.partition import employee_items, employee_view, hit_view
from tatami_functions.employees.questions import plan
from tatami_functions.employees.schemas import EmployeeIn, from_csv_row
from tatami_functions.employees.table import MANAGERS, OVERLOADED, PLACES

DALE = (
    "40,Dale Marlin,IT Support Manager,Support,Chicago,IL,1989-01-18,2014-10-19,"
    "Senior Software Engineer,2014-06-27,1"
)


def test_an_employee_is_the_workshops_four_items() -> None:
    employee_id, employee = from_csv_row(DALE.split(","))
    master, current, previous, location = employee_items(employee_id, employee)
    keys = [master[name] for name in ("PK", "SK", "GSI_1_PK", "GSI_1_SK", "GSI_3_PK", "GSI_3_SK")]
    assert keys == ["e#40", "master", "master", "Dale Marlin", "state#IL", "Chicago#Support"]
    assert master["is_manager"] == "1"
    assert (current["SK"], current["GSI_1_PK"], current["hire_date"]) == (
        "current_title#IT Support Manager",
        "current_title#IT Support Manager",
        "2014-06-27",  # the workshop's current-title entry dates the title from the previous one's end
    )
    assert previous["SK"] == "previous_title#Senior Software Engineer"
    assert previous["hire_date"] == "2014-10-19"
    assert (location["SK"], location["city_dept"]) == ("state#IL", "Chicago#Support")
    assert all("GSI_3_PK" not in item and "is_manager" not in item for item in (current, previous, location))


def test_only_managers_carry_the_sparse_key() -> None:
    employee_id, employee = from_csv_row(DALE.split(",")[:10])
    assert all("is_manager" not in item for item in employee_items(employee_id, employee))


def test_without_a_previous_title_there_are_three_items() -> None:
    employee = EmployeeIn(
        name="N", title="T", department="D", city="C", state="S", hire_date=date(2020, 1, 2)
    )
    items = employee_items(1, employee)
    assert [item["SK"] for item in items] == ["master", "current_title#T", "state#S"]
    assert items[1]["hire_date"] == "2020-01-02"


def test_views_speak_the_apis_words() -> None:
    employee_id, employee = from_csv_row(DALE.split(","))
    master, current, *_ = (low_level(item) for item in employee_items(employee_id, employee))
    view = employee_view(master)
    assert view["employee_id"] == 40 and view["department"] == "Support" and view["is_manager"] is True
    assert hit_view(current) == {"employee_id": 40, "name": "Dale Marlin", "hire_date": "2014-06-27"}


@pytest.mark.parametrize(
    ("question", "index", "condition", "values"),
    [
        ({}, OVERLOADED, "GSI_1_PK = :pk", ["master"]),
        ({"name": "Dale Marlin"}, OVERLOADED, "GSI_1_PK = :pk AND GSI_1_SK = :sk", ["master", "Dale Marlin"]),
        ({"title": "Developer"}, OVERLOADED, "GSI_1_PK = :pk", ["current_title#Developer"]),
        ({"previous_title": "Developer"}, OVERLOADED, "GSI_1_PK = :pk", ["previous_title#Developer"]),
        ({"state": "WA", "sort": "name"}, OVERLOADED, "GSI_1_PK = :pk", ["state#WA"]),
        ({"state": "WA"}, PLACES, "GSI_3_PK = :pk", ["state#WA"]),
        ({"state": "WA", "city": "Seattle"}, PLACES, "GSI_3_PK = :pk AND begins_with(GSI_3_SK, :sk)",
         ["state#WA", "Seattle#"]),
        ({"state": "WA", "city": "Seattle", "department": "QA"}, PLACES, "GSI_3_PK = :pk AND GSI_3_SK = :sk",
         ["state#WA", "Seattle#QA"]),
    ],
)  # fmt: skip
def test_every_question_is_one_key_condition(
    question: dict[str, str], index: IndexSchema, condition: str, values: list[str]
) -> None:
    lookup = plan(**question)
    assert (lookup.index, lookup.condition) == (index.name, condition)
    assert [value["S"] for value in lookup.values.values()] == values
    assert lookup.index != MANAGERS.name  # managers have their own route


@pytest.mark.parametrize(
    ("question", "field"),
    [
        ({"city": "Seattle"}, "city"),
        ({"department": "QA"}, "department"),
        ({"state": "WA", "department": "QA"}, "department"),
        ({"name": "A", "title": "B"}, "title"),
        ({"title": "B", "state": "WA"}, "state"),
        ({"title": "B", "sort": "name"}, "sort"),
        ({"state": "WA", "city": "Seattle", "sort": "name"}, "sort"),
    ],
)
def test_questions_the_indexes_cannot_answer_name_the_parameter(question: dict[str, str], field: str) -> None:
    with pytest.raises(QuestionError) as raised:
        plan(**question)
    assert raised.value.field == field and str(raised.value).startswith(f"{field}: ")
