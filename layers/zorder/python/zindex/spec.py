"""What a table declares to be searched: its attributes (types, domains) and its indexes.

One :class:`IndexedTable` is the whole contract between the infrastructure (which creates the GSIs and
the maintainer), the maintainer (which writes each item's index keys) and search (which plans over the
indexes): the construct serialises it into the functions' environment (``ZINDEX_SPEC``), so all three
read one declaration.

Any number of indexes of each kind (DynamoDB allows 20 GSIs per table); the kinds are in
:mod:`zindex.kinds` (a Z index over several attributes, a sorted index over one), each answering the one
interface :class:`zindex.kinds.base.Index`.

An item is in every index or in none: it is indexed when it holds every declared attribute and each
value encodes; that keeps a search's result independent of the index the optimizer picks.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from zindex.kinds import Index, SortedIndex, ZIndex, index_from_dict, index_to_dict
from zorder import Encoding, Schema
from zorder.encodings import encoding_from_dict, encoding_to_dict

__all__ = ["ENV", "Attribute", "Index", "IndexedTable", "SortedIndex", "ZIndex"]

ENV = "ZINDEX_SPEC"  # the environment variable holding IndexedTable.to_json()
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


@dataclass(frozen=True)
class IndexedTable:
    """A table, the attributes its searches bound and the indexes that serve them.

    >>> from zorder import Fixed
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
