"""A call's parameters as the low-level client takes them, read once each: expressions parsed with
their placeholders, attribute values as Python values, and whatever the model does not read refused.

Refusing an unread parameter is the point: a ``ProjectionExpression`` or ``ScanIndexForward=False``
silently ignored would make the model answer something DynamoDB would not.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tatami.dynamodb_model.expressions import Node, parse_condition
from tatami.dynamodb_model.tokens import Unsupported
from tatami.dynamodb_model.updates import Update, parse_update
from zindex.dynamojson import to_item, to_python

__all__ = ["Request", "consumed"]

_DEFAULTS = {"ReturnValues": "NONE", "ScanIndexForward": True}  # read when at these values


class Request:
    """The parameters of one ``operation``."""

    def __init__(self, operation: str, params: Mapping[str, Any]) -> None:
        self.operation, self.params = operation, dict(params)
        self._names: dict[str, str] = self.params.pop("ExpressionAttributeNames", {})
        raw = self.params.pop("ExpressionAttributeValues", {})
        self._values = {k: to_python(v) for k, v in raw.items()}
        self.capacity = self.params.pop("ReturnConsumedCapacity", "NONE")
        self.consistent = bool(self.params.pop("ConsistentRead", False))

    def take(self, name: str, default: Any = None) -> Any:
        return self.params.pop(name, default)

    def need(self, name: str) -> Any:
        if name not in self.params:
            raise Unsupported(f"{self.operation} without {name}")
        return self.params.pop(name)

    def item(self, name: str) -> dict[str, Any] | None:
        """An item or key parameter as Python values (None when absent)."""
        raw = self.params.pop(name, None)
        return None if raw is None else to_item(raw)

    def condition(self, name: str) -> Node | None:
        text = self.params.pop(name, None)
        return None if text is None else parse_condition(text, self._names, self._values)

    def update(self) -> Update:
        return parse_update(self.need("UpdateExpression"), self._names, self._values)

    def done(self) -> None:
        """Refuse every parameter left unread (the harmless ones at their default value excepted)."""
        for name, default in _DEFAULTS.items():
            if self.params.get(name, default) == default:
                self.params.pop(name, None)
        if self.params:
            raise Unsupported(f"{self.operation}: the model does not read {sorted(self.params)}")


def consumed(
    request: Request, table: str, units: Mapping[str | None, float], on_index: str | None = None
) -> dict[str, Any]:
    """The response's ``ConsumedCapacity`` as asked (TOTAL or INDEXES; nothing for NONE): ``units`` by
    target, None being the table (a Query of a GSI bills the GSI: ``on_index``)."""
    if request.capacity not in ("TOTAL", "INDEXES"):
        return {}
    found: dict[str, Any] = {"TableName": table, "CapacityUnits": float(sum(units.values()))}
    if request.capacity == "INDEXES":
        indexes = {n: {"CapacityUnits": float(u)} for n, u in units.items() if n is not None}
        if None in units:
            found["Table"] = {"CapacityUnits": float(units[None])}
        if indexes:
            found["GlobalSecondaryIndexes"] = indexes
    return {"ConsumedCapacity": found}
