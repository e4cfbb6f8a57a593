"""The employees service: an employee read, written or removed whole, and questions answered by one Query.

An employee is a partition of items (`partition.py`); a question picks its index (`questions.py`).
"""

from __future__ import annotations

from typing import Any

from tatami_functions.common.attribute_values import low_level
from tatami_functions.common.paging import Item, ListPage, ReadStats
from tatami_functions.employees.exceptions import EmployeeNotFoundError
from tatami_functions.employees.partition import employee_items, employee_view, hit_view
from tatami_functions.employees.questions import MANAGERS_LOOKUP, Lookup, plan
from tatami_functions.employees.repository import repository
from tatami_functions.employees.schemas import EmployeeIn

__all__ = ["delete", "employee", "find", "managers", "plan", "put"]


def employee(employee_id: int) -> tuple[dict[str, Any], ReadStats]:
    """The employee and what reading it cost; EmployeeNotFoundError if there is none."""
    item, stats = repository().master(employee_id)
    if item is None:
        raise EmployeeNotFoundError(f"no employee {employee_id}")
    return employee_view(item), stats


def find(lookup: Lookup, cursor: Item | None, limit: int) -> ListPage:
    """A page of the employees (or index entries) a question finds, and its cost."""
    items, next_key, stats = repository().query(lookup, cursor, limit)
    return ListPage([hit_view(item) for item in items], next_key, stats)


def managers(cursor: Item | None, limit: int) -> ListPage:
    """Every manager by name: the sparse GSI_2 holds nothing else."""
    return find(MANAGERS_LOOKUP, cursor, limit)


def put(employee_id: int, employee_in: EmployeeIn) -> tuple[bool, dict[str, Any]]:
    """Create or replace the employee with all its index entries; (was it new?, the employee)."""
    table = repository()
    owned, version = table.owned(employee_id)
    items = [low_level(item) for item in employee_items(employee_id, employee_in, version + 1)]
    table.replace(employee_id, items, version, owned)
    return version == 0, employee_view(items[0])


def delete(employee_id: int) -> None:
    """Remove the employee and its index entries; EmployeeNotFoundError if there is none."""
    table = repository()
    owned, version = table.owned(employee_id)
    if version == 0:
        raise EmployeeNotFoundError(f"no employee {employee_id}")
    table.remove(employee_id, version, owned)
