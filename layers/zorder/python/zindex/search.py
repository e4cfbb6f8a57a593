"""A search, end to end: query -> optimizer -> executor -> repository, one page at a time.

:class:`Searcher` is what a service's route calls. It keeps the statistics (re-read every few minutes
per execution environment, or given once at construction by a job that built them) and the maintainer's
status (re-read every few seconds, so that a search on an index that is behind says so), chooses the
plan, runs one page of it, and returns the items, the cursor of the next page, what was read and paid
beside what was estimated, and, when the table has no statistics yet, why the page was planned
without them (the caller logs it: results are exact, only dearer).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from zindex.cursor import Cursor
from zindex.dynamodb import IndexRepository
from zindex.errors import BadQueryError, StatisticsError
from zindex.executor import PageStats, execute
from zindex.optimizer import Choice, choose, describe
from zindex.plan import CostModel, Plan
from zindex.query import SearchQuery
from zindex.readers import reader_for
from zindex.spec import IndexedTable
from zindex.statistics import Statistics, loads
from zindex.status import lag_seconds

__all__ = ["SearchPage", "Searcher", "public"]

STATISTICS_TTL = 300.0  # seconds a warm function keeps its statistics before reading them again
STATUS_TTL = 2.0  # seconds it keeps the maintainer's status


@dataclass
class SearchPage:
    """One page: raw items (index keys included), the next page's cursor, actual and estimated cost."""

    items: list[dict[str, Any]]
    cursor: Cursor | None
    stats: PageStats
    choice: Choice
    lag_seconds: float = 0.0
    planning_ms: float = 0.0
    without_statistics: str | None = None  # why it was planned with uniform statistics (None: it was not)

    def stats_json(self) -> dict[str, Any]:
        """The response's ``stats``: what this page read and paid, the plan, its estimate, the index lag."""
        plan = self.choice.chosen
        return {
            **self.stats.as_dict(),
            "index": plan.index,
            "plan": describe(plan),
            "estimate": plan.estimate.as_dict(),
            "index_lag_seconds": self.lag_seconds,
        }


class Searcher:
    """Searches of one indexed table (one per execution environment, reused while warm)."""

    def __init__(
        self,
        repository: IndexRepository,
        model: CostModel | None = None,
        statistics: Statistics | None = None,
    ) -> None:
        """``statistics``: plan with these, always (a job or a test that built them in memory); without,
        the table's own are read every STATISTICS_TTL seconds."""
        self.repository, self.table, self.model = repository, repository.table, model or CostModel()
        self._given = statistics
        self._read: tuple[float, Statistics, str | None] | None = None  # when, what, why uniform
        self._status: tuple[float, Mapping[str, Any]] | None = None

    def _current(self) -> tuple[Statistics, str | None]:
        """The statistics to plan with, and why they are uniform ones (None: they are not)."""
        if self._given is not None:
            return self._given, None
        now = time.monotonic()
        if self._read is None or now - self._read[0] > STATISTICS_TTL:
            try:
                self._read = (now, loads(self.table, self.repository.get_statistics()), None)
            except StatisticsError as exc:
                self._read = (now, Statistics.uniform(self.table), str(exc))
        return self._read[1], self._read[2]

    def statistics(self) -> Statistics:
        """The statistics plans are made with: the table's, read at most every STATISTICS_TTL seconds;
        uniform ones when there are none (results stay exact: see :meth:`without_statistics`)."""
        return self._current()[0]

    def without_statistics(self) -> str | None:
        """Why plans are made with uniform statistics (None: with the table's own, or those given)."""
        return self._current()[1]

    def lag(self) -> float:
        now = time.monotonic()
        if self._status is None or now - self._status[0] > STATUS_TTL:
            self._status = (now, self.repository.get_status())
        return lag_seconds(self._status[1], time.time())

    def plan(
        self, query: SearchQuery, cursor: Cursor | None = None, only: Callable[[Plan], bool] | None = None
    ) -> Choice:
        try:
            return choose(query, self.statistics(), self.model, cursor.family if cursor else None, only)
        except LookupError:
            raise BadQueryError("next", "this page token belongs to a plan that no longer exists") from None

    def search(
        self,
        query: SearchQuery,
        limit: int,
        cursor: Cursor | None = None,
        only: Callable[[Plan], bool] | None = None,
    ) -> SearchPage:
        started = time.perf_counter()
        choice = self.plan(query, cursor, only)
        planned = (time.perf_counter() - started) * 1000
        reader = reader_for(self.repository, choice.chosen, query)
        items, following, stats = execute(
            reader, choice.chosen.spans, limit, cursor, self.model.max_queries_per_page
        )
        return SearchPage(items, following, stats, choice, self.lag(), planned, self.without_statistics())


def public(table: IndexedTable, item: Mapping[str, Any]) -> dict[str, Any]:
    """An item as an API returns it: its key, attributes and projection (what every plan reads, so the
    answer does not depend on the plan), numbers as JSON numbers.

    >>> from zorder import UInt
    >>> from zindex import Attribute, ZIndex
    >>> t = IndexedTable("T", ("id",), (Attribute("n", UInt(8)),), (ZIndex("z", ("n",), 2),), ("x",))
    >>> public(t, {"id": "a", "n": Decimal("2"), "x": Decimal("1.5"), "zaddr": b"\\x00", "other": 1})
    {'id': 'a', 'n': 2, 'x': 1.5}
    """
    shown = {*table.key, *(a.name for a in table.attributes), *table.projection}
    return {name: _plain(value) for name, value in item.items() if name in shown}


def _plain(value: Any) -> Any:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value
