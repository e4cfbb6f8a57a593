"""How one span of each kind of plan is read: the DynamoDB call, where the next call starts, and the
cursor a page leaves when it stops in the span.

A Z span is one bucket's address range: when a Query stops on an entry outside the boxes, the next
starts at the next address inside them (BIGMIN) instead of right after that entry. A sorted-index span
is one shard's key range, a Scan span one segment: they go on from DynamoDB's LastEvaluatedKey.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from zindex.cursor import Cursor
from zindex.dynamodb import IndexRepository, ReadResponse
from zindex.errors import UnencodableError
from zindex.keys import bucket_name, index_keys, indexable
from zindex.plan import Plan, Span
from zindex.query import SearchQuery
from zindex.spec import SortedIndex, ZIndex
from zorder.bigmin import next_in_box

__all__ = ["Position", "Reader", "reader_for"]

Position = tuple[int | None, Mapping[str, Any] | None]  # Z: the next Query's first address; start key


class Reader:
    """Reads the spans of one plan (the base reads a sorted-index shard or a Scan segment)."""

    def __init__(self, repository: IndexRepository, plan: Plan, query: SearchQuery) -> None:
        self.repository, self.plan, self.query = repository, plan, query
        self.table = repository.table
        require = tuple(a.name for a in self.table.attributes) if plan.index is None else ()
        self.filter = query.filter(require)

    def start(self, span: Span, cursor: Cursor | None) -> Position | None:
        if cursor is not None and cursor.partition == span.partition and cursor.key is not None:
            return None, cursor.key
        return None, None

    def read(self, span: Span, position: Position, limit: int | None) -> tuple[ReadResponse, Position | None]:
        page = self._call(span, position[1], limit)
        return page, None if page.last_key is None else (None, page.last_key)

    def _call(self, span: Span, start: Mapping[str, Any] | None, limit: int | None) -> ReadResponse:
        raise NotImplementedError

    def entry_key(self, item: Mapping[str, Any]) -> dict[str, Any]:
        """The index key of a returned item (what ExclusiveStartKey needs)."""
        index = None if self.plan.index is None else self.table.index(self.plan.index)
        names = [*self.table.key, *(index.written if index else ())]
        if isinstance(index, SortedIndex):
            names.append(index.attribute)
        return {name: item[name] for name in names}

    def after_item(self, span: Span, item: Mapping[str, Any]) -> Cursor:
        return Cursor(self.plan.family, span.partition, key=self.entry_key(item))

    def at(self, span: Span, position: Position | None) -> Cursor:
        """The cursor of a page that stops at ``position`` in ``span`` (None: after the whole span)."""
        return Cursor(self.plan.family, span.partition, key=None if position is None else position[1])


class SortedReader(Reader):
    def __init__(self, repository: IndexRepository, plan: Plan, query: SearchQuery) -> None:
        super().__init__(repository, plan, query)
        index = self.table.index(plan.index or "")
        assert isinstance(index, SortedIndex)
        self.filter = query.filter(keyed=index.attribute)

    def _call(self, span: Span, start: Mapping[str, Any] | None, limit: int | None) -> ReadResponse:
        index = self.table.index(self.plan.index or "")
        assert isinstance(index, SortedIndex)
        low, high = self.query.bounds[index.attribute]
        return self.repository.query_sorted(index, span.partition, low, high, self.filter, limit, start)


class ScanReader(Reader):
    def _call(self, span: Span, start: Mapping[str, Any] | None, limit: int | None) -> ReadResponse:
        segments = len(self.plan.spans)
        page = self.repository.scan(self.plan.index, span.partition, segments, self.filter, limit, start)
        if self.plan.index is None:  # the table holds what no index does: keep what an index would
            page.items = [i for i in page.items if _indexed(self, i)]
        return page


def _indexed(reader: Reader, item: Mapping[str, Any]) -> bool:
    if not indexable(reader.table, item):
        return False
    try:
        index_keys(reader.table, item)
    except UnencodableError:
        return False
    return True


class ZReader(Reader):
    """Z spans: one bucket, addresses ``first..last``; BIGMIN past entries outside the boxes."""

    def __init__(self, repository: IndexRepository, plan: Plan, query: SearchQuery) -> None:
        super().__init__(repository, plan, query)
        index = self.table.index(plan.index or "")
        assert isinstance(index, ZIndex)
        self.index, self.boxes = index, query.boxes(index.name)
        self.nbytes = self.table.schema(index.name).nbytes

    def start(self, span: Span, cursor: Cursor | None) -> Position | None:
        if cursor is None or cursor.partition != span.partition or cursor.address is None:
            return span.first, None
        at = cursor.address
        if not span.first <= at <= span.last:
            return span.first, None
        if cursor.key is not None:
            return at, cursor.key
        return (at + 1, None) if at < span.last else None

    def read(self, span: Span, position: Position, limit: int | None) -> tuple[ReadResponse, Position | None]:
        first = position[0] if position[0] is not None else span.first
        page = self.repository.query_z(
            self.index,
            bucket_name(self.index, span.partition),
            first.to_bytes(self.nbytes),
            span.last.to_bytes(self.nbytes),
            self.filter,
            limit,
            position[1],
        )
        if page.last_key is None:
            return page, None
        last = int.from_bytes(page.last_key[self.index.address_attribute])
        jumps = [t for t in (next_in_box(last, box) for box in self.boxes) if t is not None]
        jump = min(jumps) if jumps else None
        if jump is None or jump > span.last:
            return page, None
        if jump == last:  # stopped inside a box: continue right after that entry
            return page, (last, page.last_key)
        return page, (jump, None)  # stopped outside: skip the out-of-box run (BIGMIN)

    def after_item(self, span: Span, item: Mapping[str, Any]) -> Cursor:
        address = int.from_bytes(item[self.index.address_attribute])
        return Cursor(self.plan.family, span.partition, address, self.entry_key(item))

    def at(self, span: Span, position: Position | None) -> Cursor:
        if position is None:
            return Cursor(self.plan.family, span.partition, span.last)
        address, key = position
        assert address is not None
        return Cursor(self.plan.family, span.partition, address if key else address - 1, key)


def reader_for(repository: IndexRepository, plan: Plan, query: SearchQuery) -> Reader:
    if plan.kind.startswith("z-"):
        return ZReader(repository, plan, query)
    return (
        SortedReader(repository, plan, query)
        if plan.kind == "sorted"
        else ScanReader(repository, plan, query)
    )
