"""A search route over the Z-index engine, for any service whose table the engine indexes.

What every such route shares: the engine's searcher of this execution environment (its declaration
from ``ZINDEX_SPEC``), the signed ``next`` token around the engine's cursor, the page as JSON (items
without index keys, the stats, every candidate plan with ``explain``) and one log line per page. A
service's repository calls it; its routes turn their parameters into bounds and answer the engine's
BadQueryError as a 400 naming the field. Functions using it need the zorder layer (the engine lives
there). The engine's planner, executor and client load with the first request that searches or
reads (about 45 ms of CPU a function serving other routes does not pay at init: bench/cold_start.py).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from tatami_functions.common.clients import SEARCH_CALLS, aws_client
from tatami_functions.common.observability import logger
from tatami_functions.common.paging import cursor_from, next_token
from zindex import Cursor, IndexedTable, SearchQuery

if TYPE_CHECKING:
    from zindex.search import Searcher


@cache
def searcher() -> Searcher:
    """The search of this execution environment (statistics and clients kept while warm)."""
    from zindex.dynamodb import IndexRepository  # here, not at init: see the module docstring
    from zindex.search import Searcher

    return Searcher(IndexRepository(IndexedTable.from_env(os.environ), aws_client("dynamodb", SEARCH_CALLS)))


def query(bounds: Mapping[str, tuple[Any, Any]]) -> SearchQuery:
    """The engine's query for the given bounds (an attribute left open on both sides is absent)."""
    return SearchQuery(searcher().table, {k: v for k, v in bounds.items() if v != (None, None)})


def item(stored: Mapping[str, Any]) -> dict[str, Any]:
    """A stored item as the API returns it: no index keys, numbers as JSON numbers."""
    from zindex.search import public  # with the engine: see the module docstring

    return public(searcher().table, stored)


def search_page(
    request: SearchQuery, scope: str, limit: int, token: str | None, with_plan: bool
) -> dict[str, Any]:
    """One page of the search: ``{"items", "next", "stats"}``, plus ``"plan"`` (every candidate with its
    estimate and cost) when ``with_plan``. ``stats`` holds this page's items read, Queries and read
    units, the index and plan chosen, the plan's estimate for the whole search, and the index lag.
    ``next`` is signed for this query under ``scope``: replayed against another it is a 400."""
    from zindex.optimizer import explain
    from zindex.search import public

    engine, signed_for = searcher(), request.scope(scope)
    found = cursor_from(token, signed_for)
    cursor = None if found is None else Cursor.from_json(found)
    page = engine.search(request, limit, cursor)
    if page.without_statistics:
        logger.warning(
            "planning without statistics; run `tatami zindex analyze`",
            extra={"reason": page.without_statistics},
        )
    logger.info("search page", extra={**page.stats_json(), "planning_ms": round(page.planning_ms, 2)})
    body: dict[str, Any] = {
        "items": [public(engine.table, found) for found in page.items],
        "next": next_token(None if page.cursor is None else page.cursor.to_json(), signed_for),
        "stats": page.stats_json(),
    }
    if with_plan:
        body["plan"] = explain(page.choice)
    return body
