"""The employees table: GetItem, one Query per question, one transaction per write, ClientError translation.

A PUT replaces the employee's four items in one TransactWriteItems, deleting the entries it no
longer has (a changed title or state), guarded by the master item's version. `load` is the bulk
path for an empty table (BatchWriteItem, 25 items a call, unprocessed items retried).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from tatami_functions.common.attribute_values import low_level
from tatami_functions.common.paging import Item, ListPage, ReadStats, cut, start_key
from tatami_functions.common.versioned import VersionedTable, guard
from tatami_functions.employees.exceptions import (
    EmployeeConflictError,
    EmployeeNotFoundError,
    EmployeesUnavailableError,
)
from tatami_functions.employees.items import (
    INDEX_KEYS,
    IS_MANAGER,
    MANAGERS,
    MASTER,
    employee_items,
    employee_view,
    hit_view,
    pk,
)
from tatami_functions.employees.models import EmployeeIn
from tatami_functions.employees.queries import Lookup
from tatami_functions.employees.settings import EmployeesSettings

MANAGERS_LOOKUP = Lookup(MANAGERS, "is_manager = :m", {":m": {"S": IS_MANAGER}})


class EmployeesTable(VersionedTable):
    """The lab's employees table.

    >>> table = EmployeesTable("Tatami-Employees", client=boto3.client("dynamodb"))  # doctest: +SKIP
    >>> table.find(plan(state="TX", city="Dallas"), None, 50).stats.items_read  # doctest: +SKIP
    47
    """

    unavailable, settings = EmployeesUnavailableError, EmployeesSettings
    conflict, entity = EmployeeConflictError, "employee"

    def get(self, employee_id: int) -> tuple[dict[str, Any], ReadStats]:
        """An employee: one GetItem of its master item."""
        response = self._call(
            "get_item",
            TableName=self.table_name,
            Key={"PK": {"S": pk(employee_id)}, "SK": {"S": MASTER}},
            ReturnConsumedCapacity="TOTAL",
        )
        if "Item" not in response:
            raise EmployeeNotFoundError(f"no employee {employee_id}")
        units = float(response.get("ConsumedCapacity", {}).get("CapacityUnits", 0.0))
        return employee_view(response["Item"]), ReadStats(1, 1, units)

    def find(self, lookup: Lookup, cursor: Item | None, limit: int) -> ListPage:
        """One Query of the lookup's index; a page of employees (or index entries) and its cost."""
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
        items, next_key = cut(
            response["Items"], response.get("LastEvaluatedKey"), limit, INDEX_KEYS[lookup.index]
        )
        return ListPage([hit_view(item) for item in items], next_key, ReadStats.of(response))

    def managers(self, cursor: Item | None, limit: int) -> ListPage:
        """Every manager by name: one Query of the sparse GSI_2, which holds nothing else."""
        return self.find(MANAGERS_LOOKUP, cursor, limit)

    def put(self, employee_id: int, employee: EmployeeIn) -> tuple[bool, dict[str, Any]]:
        """Write the employee's items in one transaction; (is it new?, the employee)."""
        owned, version = self._owned(employee_id)
        items = [low_level(item) for item in employee_items(employee_id, employee, version + 1)]
        master, entries = items[0], items[1:]
        actions: list[Any] = [{"Put": {"TableName": self.table_name, "Item": master, **guard(version)}}]
        actions += [{"Put": {"TableName": self.table_name, "Item": item}} for item in entries]
        stale = owned - {item["SK"]["S"] for item in items}
        actions += [{"Delete": self._key(employee_id, sk)} for sk in sorted(stale)]
        self._transact(actions)
        return version == 0, employee_view(master)

    def delete(self, employee_id: int) -> None:
        """Remove the employee's items in one transaction."""
        owned, version = self._owned(employee_id)
        if version == 0:
            raise EmployeeNotFoundError(f"no employee {employee_id}")
        actions: list[Any] = [{"Delete": self._key(employee_id, MASTER) | guard(version)}]
        actions += [{"Delete": self._key(employee_id, sk)} for sk in sorted(owned - {MASTER})]
        self._transact(actions)

    def load(self, employees: Iterable[tuple[int, EmployeeIn]]) -> int:
        """Bulk-write employees into an empty table (no stale entries to remove); items written."""
        items = [low_level(i) for eid, e in employees for i in employee_items(eid, e)]
        for start in range(0, len(items), 25):
            self._batch([{"PutRequest": {"Item": item}} for item in items[start : start + 25]])
        return len(items)

    def _batch(self, requests: list[Any]) -> None:
        for attempt in range(8):
            response = self._call("batch_write_item", RequestItems={self.table_name: requests})
            requests = response.get("UnprocessedItems", {}).get(self.table_name, [])
            if not requests:
                return
            time.sleep(0.05 * 2**attempt)  # DynamoDB asks for backoff before resending
        raise EmployeesUnavailableError(f"{len(requests)} items stayed unprocessed after 8 attempts")

    def _owned(self, employee_id: int) -> tuple[set[str], int]:
        """The sort keys of the employee's partition and its version (0: no employee), read consistently."""
        return self._partition(pk(employee_id), MASTER)

    def _key(self, employee_id: int, sort_key: str) -> dict[str, Any]:
        return {"TableName": self.table_name, "Key": {"PK": {"S": pk(employee_id)}, "SK": {"S": sort_key}}}


def default_table() -> EmployeesTable:
    """The function's table, named by its environment (created once per execution environment)."""
    return EmployeesTable.from_environment()
