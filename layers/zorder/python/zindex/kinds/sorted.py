"""The sorted index: a sparse GSI sorted by one attribute's native value, its partition key one of
``shards`` values (a stable hash of the item's key), so a range of that attribute is ``shards`` Queries.

It serves a search that bounds its attribute (without crossing a seam): one Query per shard over that
key range, the other bounds as a filter. Its statistics: an equi-depth histogram of the attribute's
encoded keys. A page resumes a shard from DynamoDB's LastEvaluatedKey.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Self

from zindex.keys import key_text
from zindex.plan import Candidates, Estimate, Plan, Reader, Span, calls
from zindex.sizes import read_units
from zindex.spec import Index

if TYPE_CHECKING:
    from zindex.dynamodb import IndexRepository, ReadResponse
    from zindex.plan import CostModel
    from zindex.query import SearchQuery
    from zindex.spec import IndexedTable
    from zindex.statistics import IndexStats

__all__ = ["SortedIndex"]


@dataclass(frozen=True, slots=True)
class SortedIndex(Index):
    """A GSI sorted by ``attribute``'s value, partitioned into ``shards`` by a hash of the item key."""

    name: str
    attribute: str
    shards: int = 4
    shard_attribute: str = "zshard"
    kind: ClassVar[str] = "sorted"
    planning_effort: ClassVar[int] = 0  # one histogram lookup: planned first, its cost bounds the rest

    @property
    def ordered_by(self) -> tuple[str, ...]:
        return (self.attribute,)

    def describe(self) -> str:
        return f"sorted by {self.attribute} ({self.shards} shards)"

    @property
    def written(self) -> tuple[str, ...]:
        return (self.shard_attribute,)

    @property
    def entry_key(self) -> tuple[str, ...]:
        return (self.shard_attribute, self.attribute)

    def gsi_keys(self, table: IndexedTable) -> tuple[tuple[str, str], tuple[str, str]]:
        """Sorted by the attribute's own value: numbers as numbers, text and instants (ISO-8601 text)
        as strings."""
        text = table.attribute(self.attribute).encoding.kind in ("text", "timestamp")
        return (self.shard_attribute, "S"), (self.attribute, "S" if text else "N")

    def shard_of(self, key_text: str) -> int:
        """A stable shard for an item key (crc32: the same in every process and language).

        >>> SortedIndex("pop", "population", shards=4).shard_of("1850147")
        0
        """
        return zlib.crc32(key_text.encode()) % self.shards

    def shard_name(self, shard: int) -> str:
        return f"{self.name}#{shard}"

    def keys(self, table: IndexedTable, item: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
        return {self.shard_attribute: self.shard_name(self.shard_of(key_text(table, item)))}

    def key_bits(self, table: IndexedTable) -> tuple[int, tuple[int, ...]]:
        return table.attribute(self.attribute).encoding.bits, ()

    def sample(
        self, table: IndexedTable, item: Mapping[str, Any], keys: Mapping[str, Any]
    ) -> tuple[int, tuple[int, ...]]:
        return table.attribute(self.attribute).encoding.bound(item[self.attribute], upper=True), ()

    def key_range(self, query: SearchQuery) -> tuple[int, int] | None:
        """The encoded keys the query's bounds on the attribute select (None: unbounded or across a
        seam, which this index cannot serve)."""
        name = self.attribute
        if not query.bounded(name) or query.wraps(name):
            return None
        encoding = query.table.attribute(name).encoding
        low, high = query.bounds[name]
        lo = 0 if low is None else encoding.bound(query.typed(name, low), upper=False)
        hi = (1 << encoding.bits) - 1 if high is None else encoding.bound(query.typed(name, high), upper=True)
        return lo, hi

    def plans(self, query: SearchQuery, stats: IndexStats, model: CostModel, bound: float) -> Candidates:
        """One Query per shard over the key range; the matches among the entries read are not known
        here (the optimizer shares out another index's estimate)."""
        keys = self.key_range(query)
        if keys is None:
            return Candidates([])
        reads = stats.keys.count(*keys)
        per_shard = reads / self.shards
        spans = tuple(Span(shard, 0, 0, 0.0, per_shard) for shard in range(self.shards))
        queries = self.shards * calls(per_shard, stats.entry_bytes)
        rcu = self.shards * read_units(per_shard, stats.entry_bytes)
        plan = Plan(
            "sorted",
            self.name,
            spans,
            Estimate(reads, 0.0, queries, rcu),
            detail={"shards": self.shards, "attribute": self.attribute},
            access=self,
        )
        return Candidates([plan])

    def reader(self, repository: IndexRepository, plan: Plan, query: SearchQuery) -> Reader:
        return SortedReader(repository, plan, query, self)

    @classmethod
    def proposals(cls, table: IndexedTable) -> list[Self]:
        """A sorted index per attribute."""
        return [cls(f"by-{a.name}", a.name, 4, f"zs{n}") for n, a in enumerate(table.attributes)]

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "attribute": self.attribute,
            "shards": self.shards,
            "shard_attribute": self.shard_attribute,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        return cls(**data)


class SortedReader(Reader):
    """A shard's key range, one Query after another from LastEvaluatedKey."""

    def __init__(
        self, repository: IndexRepository, plan: Plan, query: SearchQuery, index: SortedIndex
    ) -> None:
        super().__init__(repository, plan, query)
        self.index = index
        # DynamoDB refuses a filter on a key attribute: the key condition bounds it
        self.filter = query.filter(keyed=index.attribute)

    def _call(self, span: Span, start: Mapping[str, Any] | None, limit: int | None) -> ReadResponse:
        index = self.index
        low, high = self.query.bounds[index.attribute]
        condition = "#ks = :ks"
        values: dict[str, Any] = {":ks": index.shard_name(span.partition)}
        if low is not None and high is not None:
            condition += " AND #kv BETWEEN :klo AND :khi"
            values.update({":klo": low, ":khi": high})
        elif low is not None:
            condition, values[":klo"] = condition + " AND #kv >= :klo", low
        elif high is not None:
            condition, values[":khi"] = condition + " AND #kv <= :khi", high
        names = {"#ks": index.shard_attribute, "#kv": index.attribute}
        return self.repository.query_index(index.name, condition, names, values, self.filter, limit, start)
