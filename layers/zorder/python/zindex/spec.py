"""What a table declares to be searched: its attributes (types, domains) and its indexes.

One :class:`IndexedTable` is the whole contract between the infrastructure (which creates the GSIs and
the maintainer), the maintainer (which writes each item's index keys) and search (which plans over the
indexes): the construct serialises it into the functions' environment (``ZINDEX_SPEC``), so all three
read one declaration.

Any number of indexes of each kind (DynamoDB allows 20 GSIs per table). Every kind answers the one
interface :class:`Index`, so that the rest of the engine never asks which kind it holds (GeoMesa's
lesson: a new kind is one new class, not an edit in every module). An index kind says:

* what it is made of: the declared attributes it orders by, the attributes the maintainer writes, its
  GSI's keys (the construct creates it), the attributes of an entry's key (what a page resumes after),
  and whether it fits the table;
* with which keys: an item's index keys (what the maintainer writes);
* with which statistics: the key ``analyze`` counts per item, and per-attribute marginal keys;
* whether it can serve a search and at what cost: its candidate plans, each estimated;
* with which reads: the reader of each of its plans (and the plans' family and EXPLAIN detail);
* which indexes of its kind the advisor should price for a table;
* its own JSON; :data:`KINDS`, filled by :mod:`zindex.kinds` (the Z and sorted kinds), reads its tag.

The interface lives here, below the planner, so its search-side methods take and return ``Any``: each
kind types them precisely (a plan, a reader, a query, statistics are all built on this declaration).

An item is in every index or in none: it is indexed when it holds every declared attribute and each
value encodes; that keeps a search's result independent of the index the optimizer picks.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from zorder import Encoding, Schema
from zorder.encodings import encoding_from_dict, encoding_to_dict

__all__ = ["ENV", "KINDS", "Attribute", "Index", "IndexedTable", "index_from_dict", "index_to_dict"]

ENV = "ZINDEX_SPEC"
"""The environment variable holding ``IndexedTable.to_json()`` (read by ``IndexedTable.from_env``)."""
FORMAT = "zindex.table/1"
RESERVED_PREFIX = "__zindex__#"  # key values of the engine's own items (statistics, status)


@dataclass(frozen=True, slots=True)
class Attribute:
    """A searchable attribute: its item name, its order-preserving encoding and its index domain.

    ``domain`` bounds the values the Z-addresses tell apart: a value beyond it is indexed at the
    nearest end (the filter still compares the real value). ``wraps``: a query may give ``low > high``,
    meaning the range crosses the seam (longitude across the antimeridian, RFC 7946).

    >>> from zorder import UInt
    >>> Attribute("population", UInt(32), domain=(None, 2**20 - 1)).saturate(5_000_000)
    1048575
    """

    name: str
    encoding: Encoding
    domain: tuple[Any, Any] = (None, None)
    wraps: bool = False

    def saturate(self, value: Any) -> Any:
        """``value`` moved into the domain, as a Z-address stores it."""
        low, high = self.domain
        if low is not None and value < low:
            return low
        if high is not None and value > high:
            return high
        return value

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "encoding": encoding_to_dict(self.encoding),
            "domain": list(self.domain),
            "wraps": self.wraps,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Attribute:
        low, high = data.get("domain") or (None, None)
        return cls(data["name"], encoding_from_dict(data["encoding"]), (low, high), bool(data.get("wraps")))


class Index(ABC):
    """One kind of index; subclasses are frozen dataclasses with a ``name`` field."""

    __slots__ = ()
    kind: ClassVar[str]  # its tag in the declaration's JSON
    planning_effort: ClassVar[int] = 1  # cheaper-to-plan kinds plan first: their cost bounds the others

    name: str

    # --- what it is made of -----------------------------------------------------------------------
    @abstractmethod
    def describe(self) -> str:
        """The index in a few words, for people (`tatami zindex plans`)."""

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
    def plans(self, query: Any, stats: Any, model: Any, bound: float) -> Any:
        """Its candidate plans for ``query`` (none if it cannot serve it), estimated from its statistics;
        ``bound``: the cost of the cheapest plan found so far (refining dearer plans is wasted work)."""

    @abstractmethod
    def reader(self, repository: Any, plan: Any, query: Any) -> Any:
        """The reader of one of its plans."""

    def family(self, plan: Any) -> str:
        """Plans of one family read the same order (a page cursor of one is valid in all); by default a
        plan shares its order with no other."""
        return f"{plan.kind}:{plan.index or ''}:{len(plan.spans)}"

    def explained(self, plan: Any) -> dict[str, Any]:
        """What EXPLAIN shows of one of its plans, when chosen, besides its estimate."""
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


KINDS: dict[str, type[Index]] = {}  # kind tag -> class; :mod:`zindex.kinds` registers each kind


def index_to_dict(index: Index) -> dict[str, Any]:
    """An index as JSON values, tagged with its kind."""
    return {"kind": index.kind, **index.to_dict()}


def index_from_dict(data: Mapping[str, Any]) -> Index:
    """Inverse of :func:`index_to_dict`: the registry of kinds reads the tag."""
    fields = dict(data)
    kind = fields.pop("kind", None)
    if kind not in KINDS:
        raise ValueError(f"unknown index kind {kind!r}; expected one of {sorted(KINDS)}")
    return KINDS[kind].from_dict(fields)


@dataclass(frozen=True)
class IndexedTable:
    """A table, the attributes its searches bound and the indexes that serve them.

    >>> from zorder import Fixed
    >>> from zindex import ZIndex
    >>> t = IndexedTable("T", ("id",), (Attribute("x", Fixed(0, 1, 8)),), (ZIndex("t-z", ("x",), 2),))
    >>> IndexedTable.from_json(t.to_json()) == t, t.schema("t-z").bits
    (True, 8)
    """

    table: str
    key: tuple[str, ...]
    attributes: tuple[Attribute, ...]
    indexes: tuple[Index, ...]
    projection: tuple[str, ...] = ()  # what a search returns besides the key (the GSIs INCLUDE it)
    _prepared: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        names = [a.name for a in self.attributes]
        if not names or len(set(names)) != len(names):
            raise ValueError(f"an indexed table needs attributes with unique names, got {names}")
        if not self.indexes or len({i.name for i in self.indexes}) != len(self.indexes):
            raise ValueError("an indexed table needs at least one index, each with its own name")
        written = [w for i in self.indexes for w in i.written]
        if len(set(written)) != len(written) or set(written) & {*names, *self.key}:
            raise ValueError(f"index key attributes {written} must be distinct from each other and the data")
        for index in self.indexes:
            unknown = sorted(set(index.ordered_by) - set(names))
            if unknown:
                raise ValueError(
                    f"index {index.name!r} names unknown attributes {unknown}; declared: {names}"
                )
            self._prepared[index.name] = index.prepare(self)

    def attribute(self, name: str) -> Attribute:
        return next(a for a in self.attributes if a.name == name)

    def index(self, name: str) -> Index:
        found = [i for i in self.indexes if i.name == name]
        if not found:
            raise KeyError(f"no index {name!r}; this table has {[i.name for i in self.indexes]}")
        return found[0]

    def schema(self, index: str) -> Schema:
        """The ``zorder.Schema`` of a Z index (what its kind derived from the declaration)."""
        found = self._prepared[index]
        if not isinstance(found, Schema):
            raise KeyError(f"index {index!r} has no Z-order schema")
        return found

    @property
    def written(self) -> tuple[str, ...]:
        """Every attribute the maintainer writes (the indexes' keys)."""
        return tuple(w for i in self.indexes for w in i.written)

    def reserved_key(self, name: str) -> dict[str, str]:
        """The key of one of the engine's own items in the table (every key attribute is a string)."""
        return dict.fromkeys(self.key, RESERVED_PREFIX + name)

    def is_reserved(self, item: Mapping[str, Any]) -> bool:
        value = item.get(self.key[0])
        return isinstance(value, str) and value.startswith(RESERVED_PREFIX)

    def named(self, table: str) -> IndexedTable:
        """The same declaration on another physical table (the construct binds the deployed name)."""
        return IndexedTable(table, self.key, self.attributes, self.indexes, self.projection)

    def to_json(self) -> str:
        """The whole declaration as JSON (what the construct puts in ``ZINDEX_SPEC``)."""
        return json.dumps(
            {
                "format": FORMAT,
                "table": self.table,
                "key": list(self.key),
                "projection": list(self.projection),
                "attributes": [a.to_dict() for a in self.attributes],
                "indexes": [index_to_dict(i) for i in self.indexes],
            },
            sort_keys=True,
        )

    @classmethod
    def from_json(cls, text: str) -> IndexedTable:
        data = json.loads(text)
        if data.get("format") != FORMAT:
            raise ValueError(
                f"not an indexed-table declaration ({data.get('format')!r}, expected {FORMAT!r})"
            )
        indexes = [index_from_dict(spec) for spec in data["indexes"]]
        return cls(
            data["table"],
            tuple(data["key"]),
            tuple(Attribute.from_dict(a) for a in data["attributes"]),
            tuple(indexes),
            tuple(data.get("projection", ())),
        )

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> IndexedTable:
        if not env.get(ENV):
            raise RuntimeError(f"environment variable {ENV} is not set (the ZOrderIndex construct sets it)")
        return cls.from_json(env[ENV])
