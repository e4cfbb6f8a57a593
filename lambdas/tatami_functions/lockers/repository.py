"""The lockers table (the seed's pick_up_locations): drill-down queries, and lockers findable by id.

Besides the seed's items, each locker has a pointer row in the reserved partition "#locker" (no
prefecture starts with '#'): sort key = locker id, a copy of the locker plus its place. It answers
`GET /lockers/{id}` with one GetItem and lets a locker move: the new item, the pointer and the
removal of the old item are one transaction, conditioned on the pointer not having changed.
"""

from __future__ import annotations

from typing import Any

from tatami_functions.common.attribute_values import deserialize, serialize
from tatami_functions.common.paging import Item, ListPage, ReadStats, start_key
from tatami_functions.common.repository import TRANSACTION_CANCELED, TableRepository
from tatami_functions.lockers.exceptions import (
    LockerConflictError,
    LockerNotFoundError,
    LockersUnavailableError,
)
from tatami_functions.lockers.locations import Locker
from tatami_functions.lockers.settings import LockersSettings
from tatami_functions.lockers.table import LOCKERS

POINTERS = "#locker"
STATE, LOCATION = LOCKERS.key_names


_STORED = {
    "locker_id": "locker_id",
    "state": "place_state",
    "location": "area",
    "name": "name",
    "address": "address",
}


def _locker(item: dict[str, Any]) -> Locker:
    return Locker(**{field: deserialize(item[stored]) for field, stored in _STORED.items()})


def _place(locker: Locker) -> str:
    return f"{locker.state}#{locker.sort_key}"


def _items(locker: Locker) -> tuple[dict[str, Any], dict[str, Any]]:
    """The locker's item and its pointer (the same attributes; the pointer also knows the place)."""
    attributes = {"locker_id": locker.locker_id, "name": locker.name, "address": locker.address}
    attributes |= {"area": locker.location, "place_state": locker.state, "place": _place(locker)}
    item = {STATE: locker.state, LOCATION: locker.sort_key, **attributes}
    pointer = {STATE: POINTERS, LOCATION: locker.locker_id, **attributes}
    return ({k: serialize(v) for k, v in item.items()}, {k: serialize(v) for k, v in pointer.items()})


class LockersRepository(TableRepository):
    """The seed's `pick_up_locations` table.

    For example (not run as a doctest)::

        lockers = LockersRepository("Tatami-Lockers", client=boto3.client("dynamodb"))
        lockers.in_area("東京都", "千代田区#紀尾井町#", 25, None).items
        # -> [{'locker_id': 'kioi-1', 'state': '東京都', 'location': '千代田区#紀尾井町', ...}]
    """

    noun, unavailable, settings = "lockers", LockersUnavailableError, LockersSettings

    def in_area(self, state: str, prefix: str | None, limit: int, cursor: Item | None) -> ListPage:
        """One Query: a prefecture's lockers whose location begins with `prefix`, in location order."""
        # `state` and `location` are reserved words in expressions.
        condition, names, values = "#state = :state", {"#state": STATE}, {":state": {"S": state}}
        if prefix:
            condition += " AND begins_with(#location, :prefix)"
            names["#location"] = LOCATION
            values[":prefix"] = {"S": prefix}
        response = self._call(
            "query",
            TableName=self.table_name,
            KeyConditionExpression=condition,
            ExpressionAttributeNames=names,
            ExpressionAttributeValues=values,
            Limit=limit,
            ReturnConsumedCapacity="TOTAL",
            **start_key(cursor),
        )
        lockers = [_locker(item).to_json() for item in response["Items"]]
        return ListPage(lockers, response.get("LastEvaluatedKey"), ReadStats.of(response))

    def get(self, locker_id: str, consistent: bool = False) -> Locker:
        """A locker by id: one GetItem of its pointer."""
        key = _pointer(locker_id)
        request: dict[str, Any] = {"TableName": self.table_name, "Key": key, "ConsistentRead": consistent}
        item = self._call("get_item", **request, ReturnConsumedCapacity="TOTAL").get("Item")
        if item is None:
            raise LockerNotFoundError(f"no locker {locker_id}")
        return _locker(item)

    def put(self, locker: Locker) -> bool:
        """Write a locker, moving it if its place changed; True if it is new."""
        try:
            old: Locker | None = self.get(locker.locker_id, consistent=True)
        except LockerNotFoundError:
            old = None
        item, pointer = _items(locker)
        guard: dict[str, Any] = {"TableName": self.table_name, "Item": pointer}
        if old is None:
            guard["ConditionExpression"] = "attribute_not_exists(#state)"
            guard["ExpressionAttributeNames"] = {"#state": STATE}
        else:
            guard |= {"ConditionExpression": "place = :place", "ExpressionAttributeValues": _was(old)}
        actions: list[Any] = [{"Put": {"TableName": self.table_name, "Item": item}}, {"Put": guard}]
        if old is not None and _place(old) != _place(locker):
            actions.append({"Delete": {"TableName": self.table_name, "Key": _key(old)}})
        self._transact(actions)
        return old is None

    def delete(self, locker_id: str) -> None:
        old = self.get(locker_id, consistent=True)
        guard = {"TableName": self.table_name, "Key": _pointer(locker_id)}
        guard |= {"ConditionExpression": "place = :place", "ExpressionAttributeValues": _was(old)}
        actions = [{"Delete": guard}, {"Delete": {"TableName": self.table_name, "Key": _key(old)}}]
        self._transact(actions)

    def _transact(self, actions: list[Any]) -> None:
        """One transaction; a failed condition (another writer was first) is a conflict."""
        conflict = LockerConflictError("the locker changed meanwhile; retry")
        self._call("transact_write_items", errors={TRANSACTION_CANCELED: conflict}, TransactItems=actions)


def _key(locker: Locker) -> Item:
    return {STATE: {"S": locker.state}, LOCATION: {"S": locker.sort_key}}


def _pointer(locker_id: str) -> Item:
    return {STATE: {"S": POINTERS}, LOCATION: {"S": locker_id}}


def _was(locker: Locker) -> dict[str, Any]:
    return {":place": {"S": _place(locker)}}


def repository() -> LockersRepository:
    """The function's repository, named by its environment (created once per execution environment)."""
    return LockersRepository.from_environment()
