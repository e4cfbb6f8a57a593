"""Running a plan: Query its spans in parallel, in plan order, until a page is full.

Results come back in (bucket, address) order, which is Z order across buckets since a bucket is the
address's top bits. A page holds at most ``limit`` items. Once it is at least half full it ends before a
span the statistics expect not to fit, so the next page reads that span whole: a span cut by a page end
costs a second Query. Otherwise it ends after ``limit`` items. The cursor says where the page stopped,
after the last item's GSI key (DynamoDB's ExclusiveStartKey) or after a whole span's last address, so
the next page resumes exactly there whatever plan that page makes. Like DynamoDB's, a page may hold
fewer than ``limit`` items with more to come: only a missing cursor means the end.

Reading ahead costs reads that may not be used, waiting costs latency: spans are read a few at a time,
and only while the items expected in the spans already running are fewer than the page still needs.
When a page of a span ends on an item outside the boxes, the next Query starts at the next address
inside them (BIGMIN) instead of right after that item.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from boto3.dynamodb.conditions import ConditionBase

from places import repository
from places.planner import Span
from places.settings import IndexSettings
from zorder import Box
from zorder.bigmin import next_in_box

MAX_PARALLEL = 8
_SLACK = 10  # extra reads allowed per Query, so the tail of a page does not crawl in one-item Queries
_MARGIN = 1.25  # reads allowed per expected read: estimates err, and a Query too short costs a round trip
_MAX_READS_PER_MATCH = 32  # bounds a Limit whose statistics expect few matches among many entries
_FULL_ENOUGH = 0.5  # share of ``limit`` after which a page ends before a span rather than cut it


@dataclass
class SearchStats:
    items_read: int = 0
    items_returned: int = 0
    queries: int = 0
    consumed_rcu: float = 0.0

    def add(self, other: SearchStats) -> None:
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


@dataclass(frozen=True, slots=True)
class Cursor:
    """Where the previous page stopped: after the last returned item (its bucket, address and table
    key), or, with ``key`` None, after every item at or before ``address`` in ``bucket``."""

    bucket: int
    address: bytes
    key: Any = None


@dataclass
class _SpanResult:
    """What one read of a span found, and where to go on if it stopped at its ``want`` (None: exhausted)."""

    items: list[dict[str, Any]] = field(default_factory=list)
    stats: SearchStats = field(default_factory=SearchStats)
    resume: Position | None = None


@dataclass(frozen=True)
class Job:
    """What the executor needs besides the plan: the boxes (for BIGMIN), the filter and the page size."""

    settings: IndexSettings
    boxes: Sequence[Box]
    condition: ConditionBase | None
    limit: int
    cursor: Cursor | None = None


@cache
def _pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=MAX_PARALLEL, thread_name_prefix="zsearch")


def _jump(boxes: Sequence[Box], address: int) -> int | None:
    """The first address at or after ``address`` inside any box (None when none is left)."""
    targets = [t for t in (next_in_box(address, box) for box in boxes) if t is not None]
    return min(targets) if targets else None


Position = tuple[int, dict[str, Any] | None]  # first address of the next Query, ExclusiveStartKey


def _start(job: Job, span: Span) -> Position:
    """Where a span's first Query starts: its first address, or just after the cursor if it is inside."""
    cursor = job.cursor
    if cursor is None or cursor.bucket != span.bucket:
        return span.first, None
    at = int.from_bytes(cursor.address)
    if not span.first <= at <= span.last:
        return span.first, None
    if cursor.key is None:
        return at + 1, None
    s = job.settings
    return at, {
        s.bucket_attribute: s.bucket_name(cursor.bucket),
        s.address_attribute: cursor.address,
        s.key_attribute: cursor.key,
    }


def _after(job: Job, last_key: dict[str, Any] | None) -> Position | None:
    """Where to go on after a page that stopped at ``last_key`` (None: nothing left in the boxes)."""
    if last_key is None:
        return None
    last = int.from_bytes(repository.binary(last_key[job.settings.address_attribute]))
    jump = _jump(job.boxes, last)
    if jump is None:
        return None
    if jump == last:  # the page ended inside a box: continue right after that item
        return last, last_key
    return jump, None  # ended outside: skip the out-of-box run (BIGMIN) with a new key condition


def read_span(job: Job, span: Span, want: int, resume: Position | None) -> _SpanResult:
    """Matching items of one span in address order: about ``want`` of them, or all if fewer."""
    s, result = job.settings, _SpanResult()
    position: Position | None = resume or _start(job, span)
    while position is not None and position[0] <= span.last:
        if len(result.items) >= want:
            result.resume = position
            break
        first, start = position
        limit = _read_limit(span, want - len(result.items))
        bounds = (first.to_bytes(s.schema.nbytes), span.last.to_bytes(s.schema.nbytes))
        page = repository.query_span(s, s.bucket_name(span.bucket), *bounds, job.condition, limit, start)
        result.stats.queries += 1
        result.stats.items_read += page.scanned
        result.stats.consumed_rcu += page.consumed_rcu
        result.items.extend(page.items)
        position = _after(job, page.last_key)
    return result


def _read_limit(span: Span, wanted: int) -> int:
    """The Limit of a Query that should find ``wanted`` more matches in ``span``.

    Limit counts entries read, matching or not: the wanted matches times the entries the statistics
    expect per match in this span (a population bound the address cannot cut makes that 2-20), with a
    margin. Counting matches alone split such spans into one Query per ~1.25x their matches.

    >>> _read_limit(Span(0, 0, 9, expected=100.0, reads=400.0), 100), _read_limit(Span(0, 0, 9), 8)
    (510, 20)
    """
    per_match = min(max(span.reads / max(span.expected, 1.0), 1.0), _MAX_READS_PER_MATCH)
    return int(wanted * per_match * _MARGIN) + _SLACK


def _remaining_spans(job: Job, spans: Sequence[Span]) -> list[Span]:
    """The spans with addresses after the cursor."""
    cursor = job.cursor
    if cursor is None:
        return list(spans)
    at = (cursor.bucket, int.from_bytes(cursor.address))
    if cursor.key is None:  # everything up to ``at`` was read
        return [sp for sp in spans if (sp.bucket, sp.last) > at]
    return [sp for sp in spans if (sp.bucket, sp.last) >= at]


class _Page:
    """Consumes span reads in plan order; launches reads ahead only while they will likely be used."""

    def __init__(self, job: Job, spans: Sequence[Span]) -> None:
        self.job, self.todo = job, deque(_remaining_spans(job, spans))
        self.slots: deque[tuple[Span, Future[_SpanResult], float]] = deque()
        self.items: list[dict[str, Any]] = []
        self.stats = SearchStats()
        self.read_through: Span | None = None  # the last span read whole

    def _submit(self, span: Span) -> None:
        ahead = sum(e for _, _, e in self.slots)
        want = max(1, int(self.job.limit - len(self.items) - ahead))
        self.slots.append((span, _pool().submit(read_span, self.job, span, want, None), span.expected))

    def _launch(self) -> bool:
        """Start reads of the next spans; False when the page should end before the next span."""
        needed = self.job.limit - len(self.items)
        while self.todo and len(self.slots) < MAX_PARALLEL:
            ahead = sum(e for _, _, e in self.slots)
            if ahead + self.todo[0].expected > needed:
                if self.slots:
                    break  # likely past the end of the page: read it only once the earlier spans are in
                if len(self.items) >= _FULL_ENOUGH * self.job.limit:
                    return False  # the next page reads it whole, in one Query instead of two
            span = self.todo.popleft()
            self._submit(span)
        return True

    def run(self) -> Cursor | None:
        """Fill the page; returns where the next page starts (None: the query has no more items)."""
        while self.todo or self.slots:
            if not self._launch():
                return self._after_span()
            span, future, _ = self.slots.popleft()
            result = future.result()
            self.stats.add(result.stats)
            needed = self.job.limit - len(self.items)
            self.items.extend(result.items[:needed])
            if len(self.items) >= self.job.limit:
                self._abandon()
                more = len(result.items) > needed or result.resume is not None or self.todo or self.slots
                return _after_item(self.job.settings, self.items[-1]) if more else None
            if result.resume is not None:  # stopped at its share: go on with it before the later spans
                self.slots.appendleft(
                    (span, _pool().submit(read_span, self.job, span, needed, result.resume), 0.0)
                )
            else:
                self.read_through = span
        return None

    def _after_span(self) -> Cursor:
        span = self.read_through
        if span is None:  # a page ends early only once it holds items, so a span was read whole
            raise AssertionError("a page ended before any span")
        return Cursor(span.bucket, span.last.to_bytes(self.job.settings.schema.nbytes))

    def _abandon(self) -> None:
        for _, other, _ in self.slots:  # read ahead for nothing: cancel it, or count what it cost
            if not other.cancel():
                self.stats.add(other.result().stats)


def execute(job: Job, spans: Sequence[Span]) -> tuple[list[dict[str, Any]], Cursor | None, SearchStats]:
    """Read spans in order until the page is full; returns the items, the next cursor and the stats."""
    page = _Page(job, spans)
    cursor = page.run()
    page.stats.items_returned = len(page.items)
    return page.items, cursor, page.stats


def _after_item(settings: IndexSettings, item: dict[str, Any]) -> Cursor:
    address = repository.binary(item[settings.address_attribute])
    return Cursor(settings.bucket_of(address), address, item[settings.key_attribute])
