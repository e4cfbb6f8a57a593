"""What a plan is: spans to read, in order, and what reading them is expected to cost.

Every access path the optimizer weighs is a :class:`Plan`: Z ranges of a Z index (a Query per range),
one ``BETWEEN`` per bucket, a BIGMIN walk in small Queries, a key range of a sorted index (a Query per
shard), a parallel Scan of an index or of the table (a segment per span). A span is one partition's
stretch of the index, read in the index's order; results come back span after span, which is the order
a page cursor follows.

A plan carries its :class:`Access`, what made it (an index kind, or the Scan): the :class:`Reader` of
its spans, the plans that share its order, what EXPLAIN adds. So the engine asks the plan, never which
kind made it. A reader runs the DynamoDB call of a span, says where the next call starts and which
cursor a page leaves when it stops in the span; by default it goes on from LastEvaluatedKey.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from zindex.cursor import Cursor

if TYPE_CHECKING:
    from zindex.dynamodb import IndexRepository, ReadResponse
    from zindex.query import SearchQuery

__all__ = [
    "MAX_PAGE_BYTES",
    "Access",
    "Candidates",
    "CostModel",
    "Estimate",
    "Plan",
    "Position",
    "Reader",
    "Span",
]

MAX_PAGE_BYTES = 1 << 20  # DynamoDB returns at most 1 MB per Query or Scan call


@dataclass(frozen=True, slots=True)
class Estimate:
    """Expected items read (evaluated, matching or not), items returned, round trips and read units."""

    reads: float
    results: float
    queries: float
    rcu: float

    def as_dict(self) -> dict[str, float]:
        return {
            "items_read": round(self.reads, 1),
            "items_returned": round(self.results, 1),
            "queries": round(self.queries, 1),
            "consumed_rcu": round(self.rcu, 2),
        }


@dataclass(frozen=True, slots=True)
class CostModel:
    """One number per plan: read units, plus a latency weight per round trip and a weight per item read.

    ``query_weight`` prices a round trip in read units (latency: a Query that reads little still takes
    a network round trip and a response to parse); ``read_weight`` prices an item read beyond its read
    units (it is transferred, filtered and parsed). ``max_queries_per_page`` caps a page's round trips.

    >>> CostModel().cost(Estimate(reads=100, results=90, queries=2, rcu=1.5))
    2.7
    """

    query_weight: float = 0.5
    read_weight: float = 0.002
    max_queries_per_page: int = 64

    def cost(self, estimate: Estimate) -> float:
        return round(
            estimate.rcu + self.query_weight * estimate.queries + self.read_weight * estimate.reads, 6
        )


def calls(items: float, entry_bytes: float) -> int:
    """Round trips to read ``items`` entries in one key range: one per MB returned.

    >>> calls(10, 100), calls(30_000, 100)
    (1, 3)
    """
    return max(1, math.ceil(items * entry_bytes / MAX_PAGE_BYTES - 1e-9))


@dataclass(frozen=True, slots=True)
class Span:
    """One partition's stretch of an index: Z bucket ``partition``, addresses ``first..last`` (ints);
    a sorted index's shard ``partition`` (bounds are the query's); a Scan's segment ``partition``."""

    partition: int
    first: int = 0
    last: int = 0
    expected: float = 0.0  # matches expected in the span
    reads: float = 0.0  # entries expected to be read


class Access(Protocol):
    """What made a plan (an index kind, or the Scan), asked about it by the executor and EXPLAIN."""

    def reader(self, repository: IndexRepository, plan: Plan, query: SearchQuery) -> Reader:
        """The reader of the plan's spans."""
        ...

    def family(self, plan: Plan) -> str:
        """Plans of one family read the same order, so a page cursor of one is valid in all."""
        ...

    def explained(self, plan: Plan) -> dict[str, Any]:
        """What EXPLAIN shows of the plan, when chosen, besides its estimate."""
        ...


def own_family(plan: Plan) -> str:
    """The family of a plan that shares its order with no other: its kind, index and span count."""
    return f"{plan.kind}:{plan.index or ''}:{len(plan.spans)}"


@dataclass(frozen=True)
class Plan:
    """An access path: ``kind`` on ``index`` (None: the table), its spans, its estimate and its maker."""

    kind: str  # e.g. "z-ranges" | "z-between" | "z-walk" | "sorted" | "scan": for people and --plan
    index: str | None
    spans: tuple[Span, ...]
    estimate: Estimate
    query_limit: int | None = None  # a fixed Limit per Query (the BIGMIN walk's 25)
    detail: dict[str, Any] = field(default_factory=dict)
    access: Access = field(kw_only=True, compare=False, repr=False)

    @property
    def family(self) -> str:
        """Plans of one family read the same order, so a page cursor of one is valid in all."""
        return self.access.family(self)


@dataclass(frozen=True)
class Candidates:
    """An index's plans for a search, and the matches it expects when it can tell (None: it cannot;
    the optimizer then shares out another index's figure)."""

    plans: list[Plan]
    results: float | None = None


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
