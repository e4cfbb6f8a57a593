"""The Scan, which any table has whatever its kinds of index: its access (:data:`SCAN` makes its plans)
and its reader, and :func:`reader_for`, the reader of any plan (its access knows which).

Each index kind brings the reader of its own plans (:mod:`zindex.kinds`), built on
:class:`zindex.plan.Reader`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from zindex.errors import UnencodableError
from zindex.keys import index_keys, indexable
from zindex.plan import Reader, own_family

if TYPE_CHECKING:
    from zindex.dynamodb import IndexRepository, ReadResponse
    from zindex.plan import Plan, Span
    from zindex.query import SearchQuery

__all__ = ["SCAN", "ScanReader", "reader_for"]


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
