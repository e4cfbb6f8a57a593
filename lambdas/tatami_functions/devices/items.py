"""Device logs as DynamoDB items: attribute names, (de)serialization, keys and read accounting."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from tatami_functions.common.attribute_values import deserialize, serialize
from tatami_functions.devices.merge import Key, Order
from tatami_functions.devices.models import DeviceLog, Level

TABLE_KEY = ("device_id", "level_with_created_at")
SHARD_INDEX_KEY = (*TABLE_KEY, "shard_id", "created_at")


@dataclass
class Reads:
    """What a request read: queries, items DynamoDB evaluated (ScannedCount) and read units.

    >>> reads = Reads()
    >>> reads.add({"ScannedCount": 3, "ConsumedCapacity": {"CapacityUnits": 0.5}})
    >>> reads.to_json()
    {'queries': 1, 'items_read': 3, 'consumed_rcu': 0.5}
    """

    queries: int = 0
    items_read: int = 0
    consumed_rcu: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add(self, response: Any) -> None:
        with self._lock:  # shard queries run in parallel threads
            self.queries += 1
            self.items_read += int(response.get("ScannedCount", 0))
            self.consumed_rcu += float(response.get("ConsumedCapacity", {}).get("CapacityUnits", 0.0))

    def to_json(self) -> dict[str, Any]:
        return {"queries": self.queries, "items_read": self.items_read, "consumed_rcu": self.consumed_rcu}


def to_item(log: DeviceLog) -> dict[str, Any]:
    """The item of a log: its API attributes plus the composite sort key and the shard."""
    values = {**log.to_json(), "shard_id": log.shard_id, "level_with_created_at": log.sort_key}
    return {name: serialize(value) for name, value in values.items()}


def from_item(item: dict[str, Any]) -> DeviceLog:
    values = {name: deserialize(value) for name, value in item.items()}
    return DeviceLog(
        device_id=values["device_id"],
        level=Level(values["level"]),
        created_at=values["created_at"],
        message=values["message"],
        expires_at=int(values["expires_at"]),
        shard_id=int(values["shard_id"]),
        operator=values.get("operator"),
        escalated_to=values.get("escalated_to"),
    )


def key_of(item: dict[str, Any], names: tuple[str, ...] = TABLE_KEY) -> Key:
    return {name: item[name] for name in names}


# Merges compare created_at only, so the order inside one stream (DynamoDB's) is never contradicted.
BY_TIME = Order[dict[str, Any]](
    of_item=lambda item: item["created_at"]["S"],
    key_of=lambda item: key_of(item, SHARD_INDEX_KEY),
    of_key=lambda key: key["created_at"]["S"],
)
BY_LEVEL_THEN_TIME = Order[dict[str, Any]](
    of_item=lambda item: item["created_at"]["S"],
    key_of=key_of,
    of_key=lambda key: key["level_with_created_at"]["S"].split("#", 1)[1],
)


def update_expression(changes: dict[str, str | None]) -> dict[str, Any]:
    """UpdateItem arguments that set the given attributes and remove those given as None.

    >>> update_expression({"operator": "MAX", "escalated_to": None})["UpdateExpression"]
    'SET #operator = :operator REMOVE #escalated_to'
    """
    sets = [f"#{name} = :{name}" for name, value in changes.items() if value is not None]
    removes = [f"#{name}" for name, value in changes.items() if value is None]
    clauses = [f"SET {', '.join(sets)}" if sets else "", f"REMOVE {', '.join(removes)}" if removes else ""]
    arguments: dict[str, Any] = {
        "UpdateExpression": " ".join(clause for clause in clauses if clause),
        "ExpressionAttributeNames": {f"#{name}": name for name in changes},
    }
    if sets:
        arguments["ExpressionAttributeValues"] = {
            f":{name}": {"S": value} for name, value in changes.items() if value is not None
        }
    return arguments
