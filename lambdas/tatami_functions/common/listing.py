"""What the list routes of the seed 001/002 models share: limits, page tokens, timestamps, read stats.

Items travel as DynamoDB's low-level AttributeValue maps until a page is cut (cursors are keys in
that form), then become plain JSON values: numbers as int or float, never Decimal strings.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Annotated, Any

from aws_lambda_powertools.event_handler.exceptions import BadRequestError
from aws_lambda_powertools.event_handler.openapi.params import Query

from tatami_functions.common.attribute_values import deserialize, serialize
from tatami_functions.common.instants import instant
from tatami_functions.common.tokens import decode_token, encode_token

LIMIT_MAX = 100
Limit = Annotated[int, Query(ge=1, le=LIMIT_MAX, description="Items per page (1..100)")]
NextToken = Annotated[
    str | None, Query(alias="next", max_length=4096, description="The `next` token of the previous page")
]
Item = dict[str, Any]  # a low-level item: attribute name -> AttributeValue


@dataclass(frozen=True, slots=True)
class ReadStats:
    """What a page cost: items DynamoDB read (ScannedCount), calls made, read units consumed."""

    items_read: int = 0
    queries: int = 0
    consumed_rcu: float = 0.0

    @classmethod
    def of(cls, response: Mapping[str, Any]) -> ReadStats:
        units = float(response.get("ConsumedCapacity", {}).get("CapacityUnits", 0.0))
        return cls(int(response.get("ScannedCount", 0)), 1, units)

    def __add__(self, other: ReadStats) -> ReadStats:
        return ReadStats(
            self.items_read + other.items_read,
            self.queries + other.queries,
            self.consumed_rcu + other.consumed_rcu,
        )


@dataclass(frozen=True, slots=True)
class ListPage:
    """One page of plain items, the cursor of the next page (a key; None on the last page) and its cost."""

    items: list[dict[str, Any]]
    cursor: Any = None
    stats: ReadStats = field(default_factory=ReadStats)

    def body(self, scope: str) -> dict[str, Any]:
        """The JSON body of a list route: items, the signed `next` token, the read stats."""
        token = encode_token(self.cursor, scope) if self.cursor is not None else None
        return {"items": self.items, "next": token, "stats": asdict(self.stats)}


def scope(route: str, **values: object) -> str:
    """The scope a page token is bound to: the route and every value that shapes the result.

    >>> scope("customer-orders", customer="42", status=None)
    '["customer-orders", {"customer": "42", "status": null}]'
    """
    return json.dumps([route, values], sort_keys=True, ensure_ascii=False, default=str)


def cursor_from(token: str | None, token_scope: str) -> Any:
    """The cursor inside a `next` token (None without one); a 400 naming `next` if forged or replayed."""
    return None if token is None else decode_token(token, token_scope)


def cut(
    items: Sequence[Item], last_key: Item | None, limit: int, key_names: Iterable[str]
) -> tuple[list[Item], Item | None]:
    """Keep `limit` of the `limit + 1` items asked for; the cursor is the last kept item's key.

    Asking for one more than the page shows whether a next page exists, so the last page never
    carries a `next` token that leads to an empty page.

    >>> cut([{"k": {"S": "a"}}, {"k": {"S": "b"}}], None, 1, ["k"])
    ([{'k': {'S': 'a'}}], {'k': {'S': 'a'}})
    """
    if len(items) <= limit:
        return list(items), last_key
    kept = list(items[:limit])
    return kept, {name: kept[-1][name] for name in key_names}


def start_key(cursor: Item | None) -> dict[str, Any]:
    """`ExclusiveStartKey=cursor` as keyword arguments, or none for a first page."""
    return {"ExclusiveStartKey": cursor} if cursor else {}


def plain(item: Mapping[str, Any], hidden: Iterable[str] = ()) -> dict[str, Any]:
    """A low-level item as JSON-ready values, without the `hidden` (internal key) attributes.

    >>> plain({"Name": {"S": "DynamoDB"}, "Views": {"N": "1000"}, "x": {"S": "-"}}, hidden=["x"])
    {'Name': 'DynamoDB', 'Views': 1000}
    """
    skip = set(hidden)
    return {k: _json_value(deserialize(v)) for k, v in item.items() if k not in skip}


def low_level(item: Mapping[str, Any]) -> Item:
    """Plain Python values as a low-level item (floats go through Decimal's text form)."""
    return {k: serialize(_decimal(v)) for k, v in item.items()}


def _json_value(value: Any) -> Any:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, list):
        return [_json_value(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(_json_value(v) for v in value)
    if isinstance(value, dict):
        return {k: _json_value(v) for k, v in value.items()}
    return value


def _decimal(value: Any) -> Any:
    if isinstance(value, float):
        return Decimal(str(value))
    if isinstance(value, list):
        return [_decimal(v) for v in value]
    if isinstance(value, dict):
        return {k: _decimal(v) for k, v in value.items()}
    return value


def path_name(value: str, field_name: str, forbidden: str = "#%") -> str:
    """A path segment (already decoded by the resolver: `common.text`) checked for forbidden characters.

    >>> path_name("DynamoDB Thread 1", "subject")
    'DynamoDB Thread 1'
    """
    bad = sorted({c for c in value if c in forbidden})
    if bad:
        raise BadRequestError(f"{field_name}: must not contain {' or '.join(repr(c) for c in bad)}")
    return value


def bounds(
    lower: datetime | None, upper: datetime | None, names: tuple[str, str] = ("from", "to")
) -> tuple[str | None, str | None]:
    """Inclusive time bounds as stored instants; a 400 naming the lower bound if they are inverted.

    >>> bounds(datetime(2011, 12, 15), None)
    ('2011-12-15T00:00:00.000Z', None)
    """
    low = instant(lower, round_up=True) if lower is not None else None
    high = instant(upper) if upper is not None else None
    if low is not None and high is not None and low > high:
        raise BadRequestError(f"{names[0]}: {low} is after {names[1]} {high}")
    return low, high


def range_condition(attribute: str, low: str | None, high: str | None) -> tuple[str, dict[str, Any]]:
    """A sort-key condition for `low <= attribute <= high` (either bound may be open); '' if both are.

    >>> range_condition("#sk", "a", None)
    ('#sk >= :low', {':low': {'S': 'a'}})
    """
    if low is not None and high is not None:
        return f"{attribute} BETWEEN :low AND :high", {":low": {"S": low}, ":high": {"S": high}}
    if low is not None:
        return f"{attribute} >= :low", {":low": {"S": low}}
    if high is not None:
        return f"{attribute} <= :high", {":high": {"S": high}}
    return "", {}
