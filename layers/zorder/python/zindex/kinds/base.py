"""The one interface every kind of index answers, so that the rest of the engine never asks which
kind it holds (GeoMesa's lesson: a new kind is one new class, not an edit in every module).

An index kind says, for a table that declares it:

* what it is made of: the declared attributes it orders by, the attributes the maintainer writes, its
  GSI's keys (the construct creates it), the attributes of an entry's key (what a page resumes after),
  and whether it fits the table;
* with which keys: an item's index keys (what the maintainer writes);
* with which statistics: the key ``analyze`` counts per item, and per-attribute marginal keys;
* whether it can serve a search and at what cost: its candidate plans, each estimated;
* with which reads: the reader of each of its plans (and the plans' family and EXPLAIN detail);
* which indexes of its kind the advisor should price for a table;
* its own JSON (the registry in :mod:`zindex.kinds` adds and reads the ``kind`` tag).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Self

from zindex.plan import own_family

if TYPE_CHECKING:
    from zindex.dynamodb import IndexRepository
    from zindex.plan import Candidates, CostModel, Plan
    from zindex.query import SearchQuery
    from zindex.readers import Reader
    from zindex.spec import IndexedTable
    from zindex.statistics import IndexStats

__all__ = ["Index"]


class Index(ABC):
    """One kind of index; subclasses are frozen dataclasses with a ``name`` field."""

    __slots__ = ()
    kind: ClassVar[str]  # its tag in the declaration's JSON
    planning_effort: ClassVar[int] = 1  # cheaper-to-plan kinds plan first: their cost bounds the others

    name: str

    # --- what it is made of -----------------------------------------------------------------------
    @property
    @abstractmethod
    def ordered_by(self) -> tuple[str, ...]:
        """The declared attributes its keys order items by."""

    @property
    @abstractmethod
    def written(self) -> tuple[str, ...]:
        """The attributes the maintainer writes for this index (its GSI keys, or part of them)."""

    @property
    def entry_key(self) -> tuple[str, ...]:
        """The attributes of an entry's key besides the table's (what ExclusiveStartKey needs)."""
        return self.written

    @abstractmethod
    def gsi_keys(self, table: IndexedTable) -> tuple[tuple[str, str], tuple[str, str]]:
        """Its GSI's partition and sort key: (attribute, DynamoDB type "S", "N" or "B") each."""

    def prepare(self, table: IndexedTable) -> Any:
        """Check the index against its table (raise ValueError); returns what it derives once from the
        declaration (a Z index: its ``zorder.Schema``), kept by the table."""
        return None

    # --- keys and statistics ----------------------------------------------------------------------
    @abstractmethod
    def keys(self, table: IndexedTable, item: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
        """The item's keys in this index; ``values``: its attributes, saturated into their domains and
        known to encode."""

    @abstractmethod
    def key_bits(self, table: IndexedTable) -> tuple[int, tuple[int, ...]]:
        """Bits of the key ``analyze`` counts and of each marginal key (uniform statistics use them)."""

    @abstractmethod
    def sample(
        self, table: IndexedTable, item: Mapping[str, Any], keys: Mapping[str, Any]
    ) -> tuple[int, tuple[int, ...]]:
        """What ``analyze`` counts of one indexed item: its key and its marginal keys (``keys``: the
        item's index keys)."""

    # --- plans and reads --------------------------------------------------------------------------
    @abstractmethod
    def plans(self, query: SearchQuery, stats: IndexStats, model: CostModel, bound: float) -> Candidates:
        """Its candidate plans for ``query`` (none if it cannot serve it), estimated from its statistics;
        ``bound``: the cost of the cheapest plan found so far (refining dearer plans is wasted work)."""

    @abstractmethod
    def reader(self, repository: IndexRepository, plan: Plan, query: SearchQuery) -> Reader:
        """The reader of one of its plans."""

    def family(self, plan: Plan) -> str:
        return own_family(plan)

    def explained(self, plan: Plan) -> dict[str, Any]:
        return {}

    # --- advice ------------------------------------------------------------------------------------
    @classmethod
    @abstractmethod
    def proposals(cls, table: IndexedTable) -> list[Self]:
        """Indexes of this kind worth pricing for ``table`` (the advisor's candidates), their key
        attributes named apart from any other kind's."""

    # --- JSON -------------------------------------------------------------------------------------
    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """Its fields as JSON values (without the ``kind`` tag)."""

    @classmethod
    @abstractmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Inverse of :meth:`to_dict`."""
