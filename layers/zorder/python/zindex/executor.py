"""Running a plan for one page: read its spans in parallel, in plan order, until the page is full.

A page holds at most ``limit`` items. Once it is at least half full it ends before a span the estimates
say will not fit, so the next page reads that span whole: a span cut by a page end costs a second
Query. When a page fills, it ends where its last Query ended if every match read was returned (the
entries read after the last match need not be read again), else after its last item. Like DynamoDB's,
a page may hold fewer than ``limit`` items with more to come: only a missing cursor means the end.

Reading ahead costs reads that may not be used, waiting costs latency: spans are read a few at a time,
and only while the matches expected from the spans already running are fewer than the page still needs.
A page makes at most ``max_queries`` Queries; past that it ends early with a cursor.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from zindex.cursor import Cursor
from zindex.plan import Position, Reader, Span

__all__ = ["PageStats", "execute"]

MAX_PARALLEL = 8
_SLACK = 4  # extra reads allowed per Query, so the tail of a page does not crawl in one-item Queries
_MARGIN = 1.1  # reads allowed per expected read: estimates err, and a Query too short costs a round trip
_MAX_READS_PER_MATCH = 32  # bounds a Limit whose estimates expect few matches among many entries
_FULL_ENOUGH = 0.5  # share of ``limit`` after which a page ends before a span rather than cut it


@dataclass
class PageStats:
    """What one page read and paid."""

    items_read: int = 0
    items_returned: int = 0
    queries: int = 0
    consumed_rcu: float = 0.0

    def add(self, other: PageStats) -> None:
        self.items_read += other.items_read
        self.queries += other.queries
        self.consumed_rcu += other.consumed_rcu

    def as_dict(self) -> dict[str, Any]:
        return {
            "items_read": self.items_read,
            "items_returned": self.items_returned,
            "queries": self.queries,
            "consumed_rcu": round(self.consumed_rcu, 2),
        }


class _Budget:
    """The page's Queries left (shared by the threads reading its spans)."""

    def __init__(self, queries: int) -> None:
        self.left, self.lock = queries, threading.Lock()

    def take(self) -> bool:
        with self.lock:
            self.left -= 1
            return self.left >= 0


@dataclass
class _SpanResult:
    """What one read of a span found; ``resume`` is where to go on (None: the span is exhausted)."""

    items: list[dict[str, Any]] = field(default_factory=list)
    stats: PageStats = field(default_factory=PageStats)
    resume: Position | None = None
    capped: bool = False  # stopped by the page's Query budget


@cache
def _pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=MAX_PARALLEL, thread_name_prefix="zindex")


def _read_limit(fixed: int | None, span: Span, wanted: int) -> int:
    """The Limit of a Query that should find ``wanted`` more matches: Limit counts entries read,
    matching or not, so it is the wanted matches times the entries expected per match, with a margin
    (unless the plan fixes it, as the BIGMIN walk does).

    >>> _read_limit(None, Span(0, 0, 9, 100.0, 400.0), 100), _read_limit(25, Span(0), 100)
    (444, 25)
    """
    if fixed is not None:
        return fixed
    per_match = min(max(span.reads / max(span.expected, 1.0), 1.0), _MAX_READS_PER_MATCH)
    return int(wanted * per_match * _MARGIN) + _SLACK


def read_span(
    reader: Reader, span: Span, want: int, position: Position | None, budget: _Budget
) -> _SpanResult:
    """Matching items of one span in index order: about ``want`` of them, or all if fewer."""
    result, at = _SpanResult(), position
    while at is not None:
        if len(result.items) >= want:
            result.resume = at
            break
        if not budget.take():
            result.resume, result.capped = at, True
            break
        page, at = reader.read(span, at, _read_limit(reader.plan.query_limit, span, want - len(result.items)))
        result.stats.queries += 1
        result.stats.items_read += page.scanned
        result.stats.consumed_rcu += page.consumed_rcu
        result.items.extend(page.items)
    return result


def _remaining(spans: Sequence[Span], cursor: Cursor | None) -> list[Span]:
    """The spans with entries after the cursor."""
    if cursor is None:
        return list(spans)
    return [
        s for s in spans if not cursor.before(s.partition, s.last if cursor.address is not None else None)
    ]


class _PageReader:
    """Consumes span reads in plan order; launches reads ahead only while they will likely be used."""

    def __init__(
        self, reader: Reader, spans: Sequence[Span], limit: int, cursor: Cursor | None, max_queries: int
    ) -> None:
        self.reader, self.limit, self.cursor = reader, limit, cursor
        self.todo = deque(_remaining(spans, cursor))
        self.slots: deque[tuple[Span, Future[_SpanResult], float]] = deque()
        self.items: list[dict[str, Any]] = []
        self.stats = PageStats()
        self.budget = _Budget(max_queries)
        self.read_through: Span | None = None  # the last span read whole

    def _submit(self, span: Span, want: int, position: Position | None, expected: float) -> None:
        future = _pool().submit(read_span, self.reader, span, want, position, self.budget)
        self.slots.append((span, future, expected))

    def _launch(self) -> bool:
        """Start reads of the next spans; False when the page should end before the next span."""
        needed = self.limit - len(self.items)
        while self.todo and len(self.slots) < MAX_PARALLEL:
            ahead = sum(e for _, _, e in self.slots)
            if ahead + self.todo[0].expected > needed:
                if self.slots:
                    break  # likely past the end of the page: read it once the earlier spans are in
                if len(self.items) >= _FULL_ENOUGH * self.limit:
                    return False  # the next page reads it whole, in one Query instead of two
            span = self.todo.popleft()
            want = max(1, int(needed - ahead))
            self._submit(span, want, self.reader.start(span, self.cursor), span.expected)
        return True

    def run(self) -> Cursor | None:
        """Fill the page; returns where the next page starts (None: the query has no more items)."""
        while self.todo or self.slots:
            if not self._launch():
                return self._after_span()
            span, future, _ = self.slots.popleft()
            result = future.result()
            self.stats.add(result.stats)
            needed = self.limit - len(self.items)
            self.items.extend(result.items[:needed])
            if len(self.items) >= self.limit or result.capped:
                more = bool(self.todo or self.slots)
                self._abandon()
                return self._end(span, result, needed, more)
            if result.resume is not None:  # stopped at its share: go on with it before the later spans
                self.slots.appendleft(
                    (
                        span,
                        _pool().submit(
                            read_span,
                            self.reader,
                            span,
                            needed - len(result.items),
                            result.resume,
                            self.budget,
                        ),
                        0.0,
                    )
                )
            else:
                self.read_through = span
        return None

    def _end(self, span: Span, result: _SpanResult, needed: int, more: bool) -> Cursor | None:
        """The cursor of a page that ends in ``span`` (``more``: spans after it are left)."""
        if len(result.items) > needed:  # matches were dropped: resume right after the last one taken
            return self.reader.after_item(span, self.items[-1])
        if result.resume is not None or more:
            return self.reader.at(span, result.resume)
        return None

    def _after_span(self) -> Cursor:
        span = self.read_through
        if span is None:  # a page ends early only once it holds items, so a span was read whole
            raise AssertionError("a page ended before any span")
        return self.reader.at(span, None)

    def _abandon(self) -> None:
        for _, other, _ in self.slots:  # read ahead for nothing: cancel it, or count what it cost
            if not other.cancel():
                self.stats.add(other.result().stats)
        self.slots.clear()


def execute(
    reader: Reader, spans: Sequence[Span], limit: int, cursor: Cursor | None = None, max_queries: int = 64
) -> tuple[list[dict[str, Any]], Cursor | None, PageStats]:
    """Read spans in order until the page is full; returns the items, the next cursor and the stats."""
    page = _PageReader(reader, spans, limit, cursor, max_queries)
    following = page.run()
    page.stats.items_returned = len(page.items)
    return page.items, following, page.stats
