"""A search request: bounds per dimension, as boxes for the planner and as a filter for DynamoDB.

Bounds are inclusive. A dimension listed in ``wrapping`` (longitude) may have ``low > high``: the range
then crosses the antimeridian, as RFC 7946 (GeoJSON) writes such a bbox, and becomes two boxes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from boto3.dynamodb.conditions import Attr, ConditionBase

from places.exceptions import BadQueryError
from places.settings import saturate
from zorder import Box, Schema

Number = Decimal | int


@dataclass(frozen=True)
class SearchRequest:
    """``bounds[name] = (low, high)``, either side None when open; names are the schema's dimensions.

    >>> from decimal import Decimal as D
    >>> r = SearchRequest({"longitude": (D(170), D(-170))}, frozenset({"longitude"}))
    >>> r.wraps("longitude"), r.matches({"longitude": D(-175)}), r.matches({"longitude": D(0)})
    (True, True, False)
    """

    bounds: Mapping[str, tuple[Number | None, Number | None]]
    wrapping: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        for name, (low, high) in self.bounds.items():
            if low is not None and high is not None and low > high and name not in self.wrapping:
                raise BadQueryError(f"{name}_min", f"{low} is greater than {name}_max {high}")

    def wraps(self, name: str) -> bool:
        low, high = self.bounds.get(name, (None, None))
        return name in self.wrapping and low is not None and high is not None and low > high

    def boxes(self, schema: Schema, domain: Mapping[str, tuple[Any, Any]] | None = None) -> list[Box]:
        """One box, or two when a wrapping dimension crosses its seam.

        Bounds are saturated into the index's ``domain``, as :func:`places.addressing.placement` saturates
        values: a population bound above the domain's ceiling looks among the places indexed at the
        ceiling, and the filter keeps those really inside.
        """
        lower: dict[str, Any] = {}
        upper: dict[str, Any] = {}
        for name in schema.names:
            low, high = self.bounds.get(name, (None, None))
            floor, ceiling = (domain or {}).get(name, (None, None))
            if not self.wraps(name):
                low = floor if low is None else saturate(low, floor, ceiling)
                high = ceiling if high is None else saturate(high, floor, ceiling)
            encoding = schema.dimensions[schema.names.index(name)].encoding
            for side, value in ((lower, low), (upper, high)):
                if value is not None:  # decimals from the API become the dimension's own type
                    side[name] = encoding.parse(str(value)) if isinstance(value, Decimal) else value
        wrapped = [n for n in self.bounds if self.wraps(n)]
        if not wrapped:
            return [schema.box(lower, upper)]
        name = wrapped[0]  # at most one dimension wraps (longitude); the others are plain ranges
        east = schema.box(lower, {k: v for k, v in upper.items() if k != name})
        west = schema.box({k: v for k, v in lower.items() if k != name}, upper)
        return [west, east]

    def condition(self) -> ConditionBase | None:
        """The exact bounds as a FilterExpression (DynamoDB compares numbers exactly, as decimals)."""
        parts: list[ConditionBase] = []
        for name, (low, high) in sorted(self.bounds.items()):
            attr = Attr(name)
            if self.wraps(name):
                parts.append(attr.gte(low) | attr.lte(high))
            elif low is not None and high is not None:
                parts.append(attr.between(low, high))
            elif low is not None:
                parts.append(attr.gte(low))
            elif high is not None:
                parts.append(attr.lte(high))
        if not parts:
            return None
        condition = parts[0]
        for part in parts[1:]:
            condition = condition & part
        return condition

    def matches(self, item: Mapping[str, Any]) -> bool:
        """The same test in Python (brute force and tests use it)."""
        for name, (low, high) in self.bounds.items():
            value = item.get(name)
            if value is None:
                return False
            if self.wraps(name):
                if not (value >= low or value <= high):
                    return False
            elif (low is not None and value < low) or (high is not None and value > high):
                return False
        return True

    def scope(self) -> str:
        """A canonical text of the query: page tokens are valid for this query only."""
        return "places-search:" + ";".join(
            f"{name}={'' if lo is None else lo}..{'' if hi is None else hi}"
            for name, (lo, hi) in sorted(self.bounds.items())
        )
