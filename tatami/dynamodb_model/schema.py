"""A CreateTable request as the model keeps it: the key, and each GSI's keys and projection; and the
model's meter of what it billed."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tatami.dynamodb_model.indexes import IndexSchema
from tatami.dynamodb_model.requests import Request

__all__ = ["Meter", "table_schema"]

_IGNORED = ("AttributeDefinitions", "BillingMode", "ProvisionedThroughput", "StreamSpecification")


@dataclass
class Meter:
    """Calls and units billed so far: read units by operation, write units by target (``"table"`` or
    the GSI's name)."""

    calls: Counter[str] = field(default_factory=Counter)
    read_units: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))
    write_units: Counter[str] = field(default_factory=Counter)

    def copy(self) -> Meter:
        return Meter(Counter(self.calls), defaultdict(float, self.read_units), Counter(self.write_units))


def _projection(spec: Mapping[str, Any]) -> tuple[str, ...] | None:
    kind = spec.get("ProjectionType", "ALL")
    return None if kind == "ALL" else tuple(spec.get("NonKeyAttributes", ()) if kind == "INCLUDE" else ())


def _key_names(schema: Any) -> tuple[str, ...]:
    return tuple(a["AttributeName"] for a in sorted(schema, key=lambda a: a["KeyType"] != "HASH"))


def _hash_range(schema: Any) -> tuple[str, str | None]:
    names = _key_names(schema)
    return names[0], names[1] if len(names) > 1 else None


def table_schema(request: Request) -> tuple[str, tuple[str, ...], list[IndexSchema]]:
    """The table's name, key (hash, then range) and GSIs (billing, streams and types are not modelled)."""
    name, key = request.need("TableName"), _key_names(request.need("KeySchema"))
    for ignored in _IGNORED:
        request.take(ignored)
    indexes = [
        IndexSchema(g["IndexName"], *_hash_range(g["KeySchema"]), _projection(g["Projection"]))
        for g in request.take("GlobalSecondaryIndexes", [])
    ]
    request.done()
    return name, key, indexes
