"""Which index and key condition answer a `GET /employees` question: always one Query, never a Scan.

Questions come in families, one per request: nothing (everyone, by name), `name`, `title`,
`previous_title` (the overloaded GSI_1), or `state` with optional `city` and `department` (the
composite GSI_3, at any depth; `sort=name` answers a whole state from GSI_1 instead, names sorted).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tatami_functions.employees.exceptions import QuestionError
from tatami_functions.employees.partition import IS_MANAGER, MASTER, place
from tatami_functions.employees.schemas import SEPARATOR
from tatami_functions.employees.table import MANAGERS, OVERLOADED, PLACES


@dataclass(frozen=True, slots=True)
class Lookup:
    """One Query: the index (its name), the key condition and its values."""

    index: str
    condition: str
    values: dict[str, Any] = field(default_factory=dict)


def _s(value: str) -> dict[str, str]:
    return {"S": value}


def plan(
    name: str | None = None,
    title: str | None = None,
    previous_title: str | None = None,
    state: str | None = None,
    city: str | None = None,
    department: str | None = None,
    sort: str = "place",
) -> Lookup:
    """The Query answering one question; QuestionError naming the parameter if it cannot be asked.

    >>> plan(state="TX", city="Dallas").condition
    'GSI_3_PK = :pk AND begins_with(GSI_3_SK, :sk)'
    >>> plan(title="Software Engineer").values
    {':pk': {'S': 'current_title#Software Engineer'}}
    """
    given = [n for n, v in (("name", name), ("title", title), ("previous_title", previous_title)) if v]
    if state or city or department:
        given.append("state")
    if len(given) > 1:
        raise QuestionError(given[1], f"ask one thing at a time: {', '.join(given)} were given")
    if state or city or department:
        return _places(state, city, department, sort)
    if sort != "place" and given:
        raise QuestionError("sort", "only orders a state's employees (name or place)")
    if name:
        condition = "GSI_1_PK = :pk AND GSI_1_SK = :sk"
        return Lookup(OVERLOADED.name, condition, {":pk": _s(MASTER), ":sk": _s(name)})
    if title or previous_title:
        entry = f"current_title{SEPARATOR}{title}" if title else f"previous_title{SEPARATOR}{previous_title}"
        return Lookup(OVERLOADED.name, "GSI_1_PK = :pk", {":pk": _s(entry)})
    return Lookup(OVERLOADED.name, "GSI_1_PK = :pk", {":pk": _s(MASTER)})


def _places(state: str | None, city: str | None, department: str | None, sort: str) -> Lookup:
    if not state:
        raise QuestionError("city" if city else "department", "give state as well (the key is state#<state>)")
    if department and not city:
        raise QuestionError("department", "give city as well (the sort key is <city>#<department>)")
    values = {":pk": _s(f"state{SEPARATOR}{state}")}
    if sort == "name":
        if city:
            raise QuestionError("sort", "name order covers a whole state; drop city or sort by place")
        return Lookup(OVERLOADED.name, "GSI_1_PK = :pk", values)
    if city and department:
        values[":sk"] = _s(place(city, department))
        return Lookup(PLACES.name, "GSI_3_PK = :pk AND GSI_3_SK = :sk", values)
    if city:
        values[":sk"] = _s(place(city))  # "Dallas#": the whole city, never "Dallas Heights"
        return Lookup(PLACES.name, "GSI_3_PK = :pk AND begins_with(GSI_3_SK, :sk)", values)
    return Lookup(PLACES.name, "GSI_3_PK = :pk", values)


MANAGERS_LOOKUP = Lookup(MANAGERS.name, "is_manager = :m", {":m": _s(IS_MANAGER)})
