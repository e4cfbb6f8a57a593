"""`GET /listings/search?price_min=&price_max=&area_min=&area_max=&listed_min=&listed_max=`: every
listing inside the box (bounds inclusive, any left open), found through the Z index.

The whole result in one answer, up to `limit` (default and most 1,000): the example keeps paging out.
Bad input is a 400 naming the parameter; the engine's own errors say which one too.
"""

from __future__ import annotations

import json
import os
from decimal import Decimal, InvalidOperation
from functools import cache
from typing import Any

from zindex import BadQueryError, IndexedTable, SearchQuery
from zindex.dynamodb import IndexRepository
from zindex.executor import PageStats
from zindex.search import Searcher, public

MAX_LIMIT = 1000
PAGE = 100


@cache
def searcher() -> Searcher:
    """One per execution environment: the declaration from the environment, the client kept warm."""
    return Searcher(IndexRepository(IndexedTable.from_env(os.environ)))


def handler(event: dict[str, Any], _context: Any) -> dict[str, Any]:
    params = event.get("queryStringParameters") or {}
    try:
        limit = _limit(params.get("limit"))
        bounds = {name: _bounds(params, name) for name in ("price", "area", "listed")}
        query = SearchQuery(searcher().table, {k: v for k, v in bounds.items() if v != (None, None)})
        items, stats = _search(query, limit)
    except (BadQueryError, ValueError) as exc:
        return _answer(400, {"message": str(exc)})
    return _answer(200, {"items": items, "stats": stats})


def _search(query: SearchQuery, limit: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Page through the engine's plan until the box is exhausted or `limit` items are found."""
    engine, items, cursor, total = searcher(), [], None, PageStats()
    while len(items) < limit:
        page = engine.search(query, min(PAGE, limit - len(items)), cursor)
        items += [public(engine.table, item) for item in page.items]
        total.add(page.stats)
        if (cursor := page.cursor) is None:
            break
    return items, {**total.as_dict(), "items_returned": len(items)}


def _bounds(params: dict[str, str], name: str) -> tuple[Decimal | None, Decimal | None]:
    return _number(params, f"{name}_min"), _number(params, f"{name}_max")


def _number(params: dict[str, str], field: str) -> Decimal | None:
    text = params.get(field)
    if text is None or text == "":
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise ValueError(f"{field}: {text!r} is not a number") from None
    if not value.is_finite():
        raise ValueError(f"{field}: {text!r} is not a finite number")
    return value


def _limit(text: str | None) -> int:
    if text is None:
        return MAX_LIMIT
    if not text.isdigit() or not 1 <= int(text) <= MAX_LIMIT:
        raise ValueError(f"limit: {text!r} must be a whole number within 1..{MAX_LIMIT}")
    return int(text)


def _answer(status: int, body: dict[str, Any]) -> dict[str, Any]:
    return {
        "statusCode": status,
        "headers": {"Content-Type": "application/json"},
        "body": json.dumps(body),  # `public` made the engine's Decimals plain numbers
    }
