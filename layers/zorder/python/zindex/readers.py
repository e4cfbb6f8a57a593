"""How one span of a plan is read: the DynamoDB call, where the next call starts, and the cursor a page
leaves when it stops in the span.

:class:`Reader` is what the executor drives; by default a span goes on from DynamoDB's LastEvaluatedKey.
Each index kind brings the reader of its own plans (:mod:`zindex.kinds`); the Scan of an index or of the
table, which any table has whatever its kinds, is here (:data:`SCAN` makes its plans).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from zindex.cursor import Cursor
from zindex.errors import UnencodableError
from zindex.keys import index_keys, indexable
from zindex.plan import own_family

if TYPE_CHECKING:
    from zindex.dynamodb import IndexRepository, ReadResponse
    from zindex.plan import Plan, Span
    from zindex.query import SearchQuery

__all__ = ["SCAN", "Position", "Reader", "reader_for"]

Position = tuple[int | None, Mapping[str, Any] | None]  # Z: the next Query's first address; start key


class Reader:
    """Reads the spans of one plan, going on from LastEvaluatedKey (a kind's reader may do better)."""

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
        names = [*self.table.key, *(index.entry_key if index else ())]
        return {name: item[name] for name in names}

    def after_item(self, span: Span, item: Mapping[str, Any]) -> Cursor:
        return Cursor(self.plan.family, span.partition, key=self.entry_key(item))

    def at(self, span: Span, position: Position | None) -> Cursor:
        """The cursor of a page that stops at ``position`` in ``span`` (None: after the whole span)."""
        return Cursor(self.plan.family, span.partition, key=None if position is None else position[1])


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


class Scan:
    """The access of Scan plans: a parallel Scan of an index or of the table, a segment per span."""

    def reader(self, repository: IndexRepository, plan: Plan, query: SearchQuery) -> Reader:
        return ScanReader(repository, plan, query)

    def family(self, plan: Plan) -> str:
        return own_family(plan)

    def explained(self, plan: Plan) -> dict[str, Any]:
        return {}


SCAN = Scan()


def reader_for(repository: IndexRepository, plan: Plan, query: SearchQuery) -> Reader:
    """The reader of ``plan`` (its access, the index kind or the Scan that made it, knows which)."""
    return plan.access.reader(repository, plan, query)
