"""What a plan is: spans to read, in order, and what reading them is expected to cost.

Every access path the optimizer weighs is a :class:`Plan`: Z ranges of a Z index (a Query per range),
one ``BETWEEN`` per bucket, a BIGMIN walk in small Queries, a key range of a sorted index (a Query per
shard), a parallel Scan of an index or of the table (a segment per span). A span is one partition's
stretch of the index, read in the index's order; results come back span after span, which is the order
a page cursor follows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

__all__ = ["MAX_PAGE_BYTES", "CostModel", "Estimate", "Plan", "Span"]

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


@dataclass(frozen=True)
class Plan:
    """An access path: ``kind`` on ``index`` (None: the table), its spans, and its estimate."""

    kind: str  # "z-ranges" | "z-between" | "z-walk" | "sorted" | "scan"
    index: str | None
    spans: tuple[Span, ...]
    estimate: Estimate
    query_limit: int | None = None  # a fixed Limit per Query (the BIGMIN walk's 25)
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def family(self) -> str:
        """Plans of one family read the same order, so a page cursor of one is valid in all."""
        if self.kind.startswith("z-"):
            return f"z:{self.index}"
        return f"{self.kind}:{self.index or ''}:{len(self.spans)}"
