"""A search route over the Z-index engine, for any service whose table the engine indexes.

What every such route shares: the engine's searcher of this execution environment (its declaration
from ``ZINDEX_SPEC``), one page as data (items without index keys, the engine's cursor as JSON, the
stats, every candidate plan when asked) and one log line per page. A service's repository calls it
and returns the page; the service signs the cursor into the ``next`` token and builds the body the
way every list route does (``common.paging``). Its routes turn their parameters into bounds and
answer the engine's BadQueryError as a 400 naming the field. Functions using it need the zorder
layer (the engine lives there). The engine's planner, executor and client load with the first
request that searches or reads (about 45 ms of CPU a function serving other routes does not pay at
init: bench/cold_start.py).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from tatami_functions.common.clients import SEARCH_CALLS, aws_client
from tatami_functions.common.observability import logger
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


@dataclass(frozen=True, slots=True)
class SearchPage:
    """One page of a search: its items as the API shows them, the engine's cursor as JSON (None on the
    last page), what the page read and cost, and every candidate plan when asked (else None)."""

    items: list[dict[str, Any]]
    cursor: Any
    stats: dict[str, Any]
    plan: list[dict[str, Any]] | None = None

    def details(self) -> dict[str, Any]:
        """What the body says besides the items and `next`: ``stats``, and ``plan`` when asked."""
        return {"stats": self.stats} if self.plan is None else {"stats": self.stats, "plan": self.plan}


def search_page(request: SearchQuery, limit: int, cursor: Any, with_plan: bool) -> SearchPage:
    """One page of the search from `cursor` (the JSON of the previous page's, None for the first).
    ``stats`` holds this page's items read, Queries and read units, the index and plan chosen, the
    plan's estimate for the whole search, and the index lag."""
    from zindex.optimizer import explain
    from zindex.search import public

    engine = searcher()
    page = engine.search(request, limit, None if cursor is None else Cursor.from_json(cursor))
    if page.without_statistics:
        logger.warning(
            "planning without statistics; run `tatami zindex analyze`",
            extra={"reason": page.without_statistics},
        )
    logger.info("search page", extra={**page.stats_json(), "planning_ms": round(page.planning_ms, 2)})
    return SearchPage(
        items=[public(engine.table, found) for found in page.items],
        cursor=None if page.cursor is None else page.cursor.to_json(),
        stats=page.stats_json(),
        plan=explain(page.choice) if with_plan else None,
    )
