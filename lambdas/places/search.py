"""Box search: bounds -> boxes -> plan -> parallel Queries -> exact items, stats and a ``next`` token."""

from __future__ import annotations

import time
from decimal import Decimal
from typing import Any

from common.observability import logger
from common.tokens import decode_token, encode_token
from places import planner, repository, statistics
from places.density import Density
from places.exceptions import BadQueryError, StatisticsError
from places.executor import Cursor, Job, SearchStats, execute
from places.query import SearchRequest
from places.settings import IndexSettings, settings

STATISTICS_TTL = 300.0  # seconds a warm function keeps its statistics before reading them again
COST_MODEL = planner.CostModel()
_cache: dict[str, tuple[float, Density]] = {}


def density(index: IndexSettings) -> Density:
    """The planner statistics of ``index``, read at most every STATISTICS_TTL seconds per environment.

    Missing or unreadable statistics are not an error: the plan is then built on uniform estimates
    (exact results, costlier reads) and the log says how to fix it.
    """
    cached = _cache.get(index.index)
    if cached is not None and time.monotonic() - cached[0] < STATISTICS_TTL:
        return cached[1]
    try:
        data = repository.get_statistics(index)
        if data is None:
            raise StatisticsError("no statistics item yet")
        found = statistics.loads(data, index.schema)
    except StatisticsError as exc:
        logger.warning("planning without statistics; run `tatami zindex analyze`", extra={"reason": str(exc)})
        found = Density.uniform(index.schema)
    _cache[index.index] = (time.monotonic(), found)
    return found


def public(item: dict[str, Any], index: IndexSettings) -> dict[str, Any]:
    """An item as the API returns it: no index keys, numbers as JSON numbers."""
    hidden = {index.address_attribute, index.bucket_attribute}
    return {name: _plain(value) for name, value in item.items() if name not in hidden}


def _plain(value: Any) -> Any:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def _cursor(token: str | None, scope: str) -> Cursor | None:
    if not token:
        return None
    data = decode_token(token, scope)
    try:
        return Cursor(int(data["b"]), bytes(data["a"]), data["k"])
    except (KeyError, TypeError, ValueError):
        raise BadQueryError("next", "malformed pagination token") from None


def run_page(
    request: SearchRequest,
    limit: int,
    cursor: Cursor | None,
    index: IndexSettings,
    model: Density | None = None,
) -> tuple[list[dict[str, Any]], Cursor | None, SearchStats]:
    """One page of raw items (index keys included) after ``cursor``; what :func:`search` and the
    benchmark call."""
    boxes = request.boxes(index.schema, index.domain)
    model = model or density(index)
    plan = planner.plan(index, boxes, model, COST_MODEL)
    job = Job(index, boxes, request.condition(), limit, cursor)
    items, following, stats = execute(job, plan.spans)
    logger.info(
        "search page",
        extra={
            "spans": len(plan.spans),
            "expected_results": round(plan.expected_results, 1),
            **stats.as_dict(),
        },
    )
    return items, following, stats


def search(
    request: SearchRequest, limit: int, token: str | None = None, index: IndexSettings | None = None
) -> dict[str, Any]:
    """Items inside the request's bounds, in Z order, ``limit`` per page.

    Returns ``{"items": [...], "next": token | None, "stats": {"items_read", "items_returned",
    "queries", "consumed_rcu"}}``; stats count this page's Queries only. ``next`` is signed for this
    query: replayed against another query it is a 400 naming ``next``.
    """
    index = index or settings()
    scope = request.scope()
    items, following, stats = run_page(request, limit, _cursor(token, scope), index)
    next_token = None
    if following is not None:
        next_token = encode_token({"b": following.bucket, "a": following.address, "k": following.key}, scope)
    return {"items": [public(item, index) for item in items], "next": next_token, "stats": stats.as_dict()}
