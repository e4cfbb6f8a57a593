"""Running a plan: Query its spans in parallel, in plan order, until a page is full.

Results come back in (bucket, address) order, which is Z order across buckets since a bucket is the
address's top bits. A page ends after ``limit`` items; the cursor is the last item's GSI key, so the next
page resumes exactly after it (DynamoDB's ExclusiveStartKey) whatever plan that page makes.

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
    """Where the previous page stopped: the last returned item's bucket, address and table key."""

    bucket: int
    address: bytes
    key: Any


@dataclass
class _SpanResult:
    """What one read of a span found, and where to go on if it stopped at its ``want`` (None: exhausted)."""

    items: list[dict[str, Any]] = field(default_factory=list)
    stats: SearchStats = field(default_factory=SearchStats)
    resume: tuple[int, dict[str, Any] | None] | None = None  # a Position


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


def _start_key(job: Job, span: Span) -> dict[str, Any] | None:
    cursor = job.cursor
    if cursor is None or cursor.bucket != span.bucket:
        return None
    if not span.first <= int.from_bytes(cursor.address) <= span.last:
        return None
    s = job.settings
    return {
        s.bucket_attribute: s.bucket_name(cursor.bucket),
        s.address_attribute: cursor.address,
        s.key_attribute: cursor.key,
    }


Position = tuple[int, dict[str, Any] | None]  # first address of the next Query, ExclusiveStartKey


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
    if resume is None:
        start = _start_key(job, span)
        resume = (
            int.from_bytes(job.cursor.address) if start is not None and job.cursor else span.first,
            start,
        )
    position: Position | None = resume
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
    cursor = job.cursor
    if cursor is None:
        return list(spans)
    at = int.from_bytes(cursor.address)
    return [sp for sp in spans if (sp.bucket, sp.last) >= (cursor.bucket, at)]


class _Page:
    """Consumes span reads in plan order; launches reads ahead only while they will likely be used."""

    def __init__(self, job: Job, spans: Sequence[Span]) -> None:
        self.job, self.todo = job, deque(_remaining_spans(job, spans))
        self.slots: deque[tuple[Span, Future[_SpanResult], float]] = deque()
        self.items: list[dict[str, Any]] = []
        self.stats = SearchStats()

    def _submit(
        self, span: Span, expected: float, resume: tuple[int, dict[str, Any] | None] | None = None
    ) -> None:
        ahead = sum(e for _, _, e in self.slots)
        want = max(1, int(self.job.limit - len(self.items) - ahead))
        self.slots.append((span, _pool().submit(read_span, self.job, span, want, resume), expected))

    def _launch(self) -> None:
        needed = self.job.limit - len(self.items)
        while self.todo and len(self.slots) < MAX_PARALLEL:
            ahead = sum(e for _, _, e in self.slots)
            if self.slots and ahead + self.todo[0].expected > needed:
                break  # likely past the end of the page: read it only once the earlier spans are in
            span = self.todo.popleft()
            self._submit(span, span.expected)

    def run(self) -> bool:
        """Fill the page; True when the query may have more items after it."""
        while self.todo or self.slots:
            self._launch()
            span, future, _ = self.slots.popleft()
            result = future.result()
            self.stats.add(result.stats)
            needed = self.job.limit - len(self.items)
            self.items.extend(result.items[:needed])
            if len(self.items) >= self.job.limit:
                self._abandon()
                return (
                    len(result.items) > needed
                    or result.resume is not None
                    or bool(self.todo)
                    or bool(self.slots)
                )
            if result.resume is not None:  # stopped at its share: go on with it before the later spans
                self.slots.appendleft(
                    (span, _pool().submit(read_span, self.job, span, needed, result.resume), 0.0)
                )
        return False

    def _abandon(self) -> None:
        for _, other, _ in self.slots:  # read ahead for nothing: cancel it, or count what it cost
            if not other.cancel():
                self.stats.add(other.result().stats)


def execute(job: Job, spans: Sequence[Span]) -> tuple[list[dict[str, Any]], Cursor | None, SearchStats]:
    """Read spans in order until ``job.limit`` items; returns the items, the next cursor and the stats."""
    page = _Page(job, spans)
    more = page.run()
    page.stats.items_returned = len(page.items)
    cursor = _cursor(job.settings, page.items[-1]) if more and page.items else None
    return page.items, cursor, page.stats


def _cursor(settings: IndexSettings, item: dict[str, Any]) -> Cursor:
    address = repository.binary(item[settings.address_attribute])
    return Cursor(settings.bucket_of(address), address, item[settings.key_attribute])
