"""An employee's partition as the workshop draws it: four items per employee, three GSIs (`table.py`).

    PK    SK                        GSI_1_PK / GSI_1_SK (overloaded)    also
    e#40  master                    master / Dale Marlin                GSI_3_PK state#IL,
                                                                        GSI_3_SK Chicago#Support,
                                                                        is_manager "1" (managers only)
    e#40  current_title#<title>     current_title#<title> / Dale Marlin
    e#40  previous_title#<title>    previous_title#<title> / Dale Marlin
    e#40  state#IL                  state#IL / Dale Marlin

GSI_1 is overloaded: its partition key holds a different attribute per item kind, so one index
answers "by name", "by current title", "by previous title" and "by state" (names sorted). GSI_2 is
keyed on `is_manager`, which only managers' master items carry: it is sparse, holding the managers
and nothing else. GSI_3 holds `state#<state>` / `<city>#<department>` on master items only: a
Query of the state, then `begins_with` the city, then the exact city and department drills down.
The title and state items carry what the workshop gives them: id, name and a date (`hire_date`;
on the current-title item it is when that title began, the previous title's end).
"""

from __future__ import annotations

from typing import Any

from tatami_functions.common.attribute_values import plain
from tatami_functions.common.paging import Item
from tatami_functions.employees.schemas import SEPARATOR, EmployeeIn

EMPLOYEE, MASTER = "e#", "master"
IS_MANAGER = "1"


def pk(employee_id: int) -> str:
    """The employee's partition.

    >>> pk(40)
    'e#40'
    """
    return f"{EMPLOYEE}{employee_id}"


def place(city: str, department: str | None = None) -> str:
    """The sort key of GSI_3 (the places index), or its prefix for a whole city (ending at the separator).

    >>> place("Dallas"), place("Dallas", "Support")
    ('Dallas#', 'Dallas#Support')
    """
    return f"{city}{SEPARATOR}{department or ''}"


def employee_items(employee_id: int, employee: EmployeeIn, version: int = 1) -> list[dict[str, Any]]:
    """The employee's items (plain values): master first, then the overloaded index's entries."""
    e, key = employee, pk(employee_id)
    hired = e.hire_date.isoformat()
    master: dict[str, Any] = {
        "PK": key,
        "SK": MASTER,
        "GSI_1_PK": MASTER,
        "GSI_1_SK": e.name,
        "GSI_3_PK": f"state{SEPARATOR}{e.state}",
        "GSI_3_SK": place(e.city, e.department),
        "employeeid": employee_id,
        "name": e.name,
        "title": e.title,
        "dept": e.department,
        "city": e.city,
        "state": e.state,
        "city_dept": place(e.city, e.department),
        "hire_date": hired,
        "version": version,
    }
    if e.dob:
        master["dob"] = e.dob.isoformat()
    if e.previous_title:
        master["previous_title"] = e.previous_title
    if e.previous_title_end:
        master["previous_title_end"] = e.previous_title_end.isoformat()
    if e.is_manager:
        master["is_manager"] = IS_MANAGER  # only managers carry it: GSI_2 stays sparse
    since = e.previous_title_end.isoformat() if e.previous_title_end else hired
    entries = [(f"current_title{SEPARATOR}{e.title}", since), (f"state{SEPARATOR}{e.state}", hired)]
    if e.previous_title:
        entries.insert(1, (f"previous_title{SEPARATOR}{e.previous_title}", hired))
    base = {"PK": key, "employeeid": employee_id, "name": e.name, "GSI_1_SK": e.name}
    overloaded = [base | {"SK": sk, "GSI_1_PK": sk, "hire_date": date} for sk, date in entries]
    overloaded[-1]["city_dept"] = master["city_dept"]
    return [master, *overloaded]


def employee_view(item: Item) -> dict[str, Any]:
    """An employee from its master item, in the API's words."""
    values = plain(item)
    city, _, department = values["city_dept"].partition(SEPARATOR)
    view = {
        "employee_id": values["employeeid"],
        "name": values["name"],
        "title": values["title"],
        "department": department,
        "city": city,
        "state": values["state"],
        "hire_date": values["hire_date"],
        "is_manager": values.get("is_manager") == IS_MANAGER,
    }
    for optional in ("dob", "previous_title", "previous_title_end"):
        if optional in values:
            view[optional] = values[optional]
    return view


def hit_view(item: Item) -> dict[str, Any]:
    """One Query hit: the whole employee for a master item, else the entry's id, name and date.

    >>> hit_view({"SK": {"S": "state#WA"}, "employeeid": {"N": "47"}, "name": {"S": "Willie McCuthais"},
    ...           "hire_date": {"S": "2015-05-27"}})
    {'employee_id': 47, 'name': 'Willie McCuthais', 'hire_date': '2015-05-27'}
    """
    if item["SK"]["S"] == MASTER:
        return employee_view(item)
    values = plain(item)
    return {"employee_id": values["employeeid"], "name": values["name"], "hire_date": values["hire_date"]}
