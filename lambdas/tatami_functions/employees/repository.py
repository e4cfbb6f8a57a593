"""The employees table: GetItem, one Query per question, one transaction per write, SDK errors translated.

A write replaces the employee's items in one TransactWriteItems, deleting the entries it no longer
has (a changed title or state), guarded by the master item's version (`common.versioned`).
"""

from __future__ import annotations

from typing import Any

from tatami_functions.common.paging import Item, ReadStats, cut, start_key
from tatami_functions.common.versioned import VersionedTable, guard
from tatami_functions.employees.exceptions import EmployeeConflictError, EmployeesUnavailableError
from tatami_functions.employees.partition import MASTER, pk
from tatami_functions.employees.questions import Lookup
from tatami_functions.employees.settings import EmployeesSettings
from tatami_functions.employees.table import EMPLOYEES


class EmployeesRepository(VersionedTable):
    """The employees table.

    For example (not run as a doctest)::

        employees = EmployeesRepository("Tatami-Employees", client=boto3.client("dynamodb"))
        employees.query(question(state="TX", city="Dallas"), None, 50)[2].items_read
        # -> 47
    """

    unavailable, settings = EmployeesUnavailableError, EmployeesSettings
    conflict, entity = EmployeeConflictError, "employee"

    def master(self, employee_id: int) -> tuple[Item | None, ReadStats]:
        """The employee's master item (None: no such employee): one GetItem."""
        response = self._call(
            "get_item",
            TableName=self.table_name,
            Key=self._key(employee_id, MASTER),
            ReturnConsumedCapacity="TOTAL",
        )
        units = float(response.get("ConsumedCapacity", {}).get("CapacityUnits", 0.0))
        return response.get("Item"), ReadStats(1, 1, units)

    def query(
        self, lookup: Lookup, cursor: Item | None, limit: int
    ) -> tuple[list[Item], Item | None, ReadStats]:
        """One Query of the lookup's index: a page of items, the next page's cursor, the cost."""
        response = self._call(
            "query",
            TableName=self.table_name,
            IndexName=lookup.index,
            KeyConditionExpression=lookup.condition,
            ExpressionAttributeValues=lookup.values,
            Limit=limit + 1,  # one more shows whether a next page exists
            ReturnConsumedCapacity="TOTAL",
            **start_key(cursor),
        )
        key_names = (*EMPLOYEES.index(lookup.index).key_names, *EMPLOYEES.key_names)
        items, next_key = cut(response["Items"], response.get("LastEvaluatedKey"), limit, key_names)
        return items, next_key, ReadStats.of(response)

    def owned(self, employee_id: int) -> tuple[set[str], int]:
        """The sort keys of the employee's partition and its version (0: no employee), read consistently."""
        return self._partition(pk(employee_id), MASTER)

    def replace(self, employee_id: int, items: list[Item], version: int, owned: set[str]) -> None:
        """Put `items` (the master item first) and delete the entries of `owned` they leave out, in
        one transaction guarded by the `version` read."""
        master, entries = items[0], items[1:]
        actions: list[Any] = [{"Put": {"TableName": self.table_name, "Item": master, **guard(version)}}]
        actions += [{"Put": {"TableName": self.table_name, "Item": item}} for item in entries]
        stale = owned - {item["SK"]["S"] for item in items}
        actions += [{"Delete": self._entry(employee_id, sk)} for sk in sorted(stale)]
        self._transact(actions)

    def remove(self, employee_id: int, version: int, owned: set[str]) -> None:
        """Delete the employee's items in one transaction guarded by the `version` read."""
        actions: list[Any] = [{"Delete": self._entry(employee_id, MASTER) | guard(version)}]
        actions += [{"Delete": self._entry(employee_id, sk)} for sk in sorted(owned - {MASTER})]
        self._transact(actions)

    def _entry(self, employee_id: int, sort_key: str) -> dict[str, Any]:
        return {"TableName": self.table_name, "Key": self._key(employee_id, sort_key)}

    @staticmethod
    def _key(employee_id: int, sort_key: str) -> dict[str, Any]:
        return {"PK": {"S": pk(employee_id)}, "SK": {"S": sort_key}}


def repository() -> EmployeesRepository:
    """The function's repository, named by its environment (created once per execution environment)."""
    return EmployeesRepository.from_environment()
