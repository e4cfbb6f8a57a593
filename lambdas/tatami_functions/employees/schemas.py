"""What `PUT /employees/{id}` accepts, and the workshop's CSV rows read into it.

Titles, departments, cities and states become parts of keys (`current_title#<title>`,
`state#<state>`, `<city>#<department>`), so they may not contain '#', the separator.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from tatami_functions.common.text import KEY_PART, stripped

SEPARATOR = "#"
MAX_ID = 10**9


def no_separator(value: str) -> str:
    """A key part as given; ValueError if it holds the key separator.

    >>> no_separator("Seattle")
    'Seattle'
    >>> no_separator("R#D")
    Traceback (most recent call last):
    ...
    ValueError: must not contain '#' (it separates the parts of a key)
    """
    if SEPARATOR in value:
        raise ValueError("must not contain '#' (it separates the parts of a key)")
    return value


KeyPart = Annotated[
    str,
    stripped(80),
    AfterValidator(no_separator),  # checked after the length: its message says why '#' is refused
    Field(json_schema_extra={"pattern": KEY_PART}),  # and the document says so too
]
Name = Annotated[str, stripped(120)]


class EmployeeIn(BaseModel):
    """Body of `PUT /employees/{id}`: the whole employee (a PUT replaces every item it owns)."""

    model_config = ConfigDict(extra="forbid")

    name: Name
    title: KeyPart
    department: KeyPart
    city: KeyPart
    state: KeyPart
    dob: date | None = None
    hire_date: date
    previous_title: KeyPart | None = None
    previous_title_end: date | None = Field(default=None, description="when the previous title ended")
    is_manager: bool = False


def from_csv_row(row: list[str]) -> tuple[int, EmployeeIn]:
    """One row of the workshop's employees.csv: id, name, title, dept, city, state, dob, hire date,
    previous title, its end date, and `1` for managers (absent otherwise).

    >>> from_csv_row("40,Dale Marlin,IT Support Manager,Support,Chicago,IL,1989-01-18,2014-10-19,"
    ...              "Senior Software Engineer,2014-06-27,1".split(","))[1].is_manager
    True
    """
    employee_id, name, title, department, city, state, dob, hired, previous, previous_end = row[:10]
    return int(employee_id), EmployeeIn(
        name=name,
        title=title,
        department=department,
        city=city,
        state=state,
        dob=date.fromisoformat(dob),
        hire_date=date.fromisoformat(hired),
        previous_title=previous or None,
        previous_title_end=date.fromisoformat(previous_end) if previous_end else None,
        is_manager=len(row) > 10 and row[10] == "1",
    )
