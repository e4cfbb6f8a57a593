"""Paging, one convention for every list route: `limit`, `next`, the scope a token is bound to.

Every list route takes `limit` (`Limit`: 1..1000, `DEFAULT_LIMIT` 100 when absent) and `next`
(`NextToken`: the opaque token of the previous page, at most 4,096 characters) and answers
`{"items": [...], "next": <token or null>}` (plus `stats` where a page reports its cost). A token is
signed for its scope (`scope`: the route and every value that shapes the result, `common.tokens`), so
one replayed against another route or query is a 400 naming `next`. One hundred items is also the
page size the Z-index searches were measured at (bench/zorder_search.py).

Items travel as DynamoDB's low-level AttributeValue maps until a page is cut (cursors are keys in
that form), then become plain JSON values (`common.attribute_values.plain`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Annotated, Any

from aws_lambda_powertools.event_handler.openapi.params import Query

from tatami_functions.common.tokens import decode_token, encode_token

DEFAULT_LIMIT = 100
LIMIT_MAX = 1000
TOKEN_MAX_LENGTH = 4096
Limit = Annotated[int, Query(ge=1, le=LIMIT_MAX, description=f"Items per page (1..{LIMIT_MAX})")]
# Opaque by design: only a token this API signed for the same query is valid (`common.tokens`), which
# no schema can describe, so a fuzzer's generated tokens are refused (a 400 naming `next`).
NextToken = Annotated[
    str | None,
    Query(
        alias="next",
        max_length=TOKEN_MAX_LENGTH,
        description="The `next` token of the previous page, as given (opaque and signed: any other is a 400)",
    ),
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
        return page_body(self.items, self.cursor, scope, stats=asdict(self.stats))


def page_body(items: list[dict[str, Any]], cursor: Any, scope: str, **details: Any) -> dict[str, Any]:
    """The JSON body of a page: its items, the `next` token signed for `scope` around `cursor` (null on
    the last page), then `details` (what the page cost, a search's plan).

    >>> page_body([], None, "forums", stats={})
    {'items': [], 'next': None, 'stats': {}}
    """
    return {"items": items, "next": next_token(cursor, scope), **details}


def scope(route: str, **values: object) -> str:
    """The scope a page token is bound to: the route (named `<service>.<route>`) and every value that
    shapes the result.

    >>> scope("orders.by-customer", customer="42", status=None)
    '["orders.by-customer", {"customer": "42", "status": null}]'
    """
    return json.dumps([route, values], sort_keys=True, ensure_ascii=False, default=str)


def cursor_from(token: str | None, token_scope: str) -> Any:
    """The cursor inside a `next` token (None without one); a 400 naming `next` if forged or replayed."""
    return None if token is None else decode_token(token, token_scope)


def next_token(cursor: Any, token_scope: str) -> str | None:
    """The signed `next` token of a page whose last key is `cursor` (None on the last page)."""
    return None if cursor is None else encode_token(cursor, token_scope)


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
