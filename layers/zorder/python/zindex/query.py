"""A search: inclusive bounds per attribute, and the filter that keeps exactly the matching items.

Each index kind turns the bounds into what it reads (a Z index: boxes; a sorted index: a key range).

An attribute declared ``wraps`` (longitude) may have ``low > high``: the range then crosses the seam and
becomes two boxes. Bounds are values of the attribute's type (numbers as ``Decimal``/``int``, text,
ISO-8601 instants); the filter compares the stored values, so results are exact whatever an encoding
merges (a ``Fixed`` step, a ``Text`` prefix, a saturated domain).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from zindex.dynamojson import as_bound
from zindex.errors import BadQueryError

if TYPE_CHECKING:
    from zindex.spec import IndexedTable

__all__ = ["Filter", "SearchQuery"]

Bounds = tuple[Any, Any]


@dataclass(frozen=True, slots=True)
class Filter:
    """A FilterExpression with its placeholders (values as Python values; the repository types them)."""

    expression: str
    names: dict[str, str]
    values: dict[str, Any]


@dataclass(frozen=True)
class SearchQuery:
    """``bounds[name] = (low, high)``, either side None when open.

    >>> from decimal import Decimal as D
    >>> from zorder import Fixed
    >>> from zindex import Attribute, IndexedTable, ZIndex
    >>> t = IndexedTable("T", ("id",), (Attribute("lon", Fixed(-180, 180, 16), wraps=True),),
    ...                  (ZIndex("z", ("lon",), 2),))
    >>> q = SearchQuery(t, {"lon": (D(170), D(-170))})
    >>> q.wraps("lon"), q.matches({"lon": D(-175)}), q.matches({"lon": D(0)})
    (True, True, False)
    """

    table: IndexedTable
    bounds: Mapping[str, Bounds]

    def __post_init__(self) -> None:
        # numbers DynamoDB cannot compare (|x| < 1E-130) become the bound that selects the same items
        typed = {
            n: (as_bound(lo, upper=False), as_bound(hi, upper=True)) for n, (lo, hi) in self.bounds.items()
        }
        object.__setattr__(self, "bounds", typed)
        known = {a.name for a in self.table.attributes}
        for name, (low, high) in self.bounds.items():
            if name not in known:
                raise BadQueryError(name, f"is not a searchable attribute; use one of {sorted(known)}")
            if low is not None and high is not None and low > high and not self.table.attribute(name).wraps:
                raise BadQueryError(f"{name}_min", f"{low} is greater than {name}_max {high}")

    def wraps(self, name: str) -> bool:
        low, high = self.bounds.get(name, (None, None))
        return self.table.attribute(name).wraps and low is not None and high is not None and low > high

    def bounded(self, name: str) -> bool:
        return self.bounds.get(name, (None, None)) != (None, None)

    def typed(self, name: str, value: Any) -> Any:
        """A bound as the encoding takes it (decimals from the API become the dimension's own type)."""
        encoding = self.table.attribute(name).encoding
        return encoding.parse(str(value)) if isinstance(value, Decimal) else value

    def filter(self, require: tuple[str, ...] = (), keyed: str | None = None) -> Filter | None:
        """The exact bounds as a FilterExpression; ``require``: attributes that must exist besides;
        ``keyed``: the attribute a sorted index's key condition already bounds (DynamoDB refuses a
        filter on a key attribute)."""
        parts, names, values = [], {}, {}
        bounds = sorted((n, b) for n, b in self.bounds.items() if n != keyed)
        for i, (name, (low, high)) in enumerate(bounds):
            ref, lo, hi = f"#f{i}", f":f{i}lo", f":f{i}hi"
            names[ref] = name
            if self.wraps(name):
                parts.append(f"({ref} >= {lo} OR {ref} <= {hi})")
            elif low is not None and high is not None:
                parts.append(f"{ref} BETWEEN {lo} AND {hi}")
            elif low is not None:
                parts.append(f"{ref} >= {lo}")
            elif high is not None:
                parts.append(f"{ref} <= {hi}")
            values.update({k: v for k, v in ((lo, low), (hi, high)) if v is not None})
        for j, name in enumerate(n for n in require if n not in self.bounds):
            names[f"#r{j}"] = name
            parts.append(f"attribute_exists(#r{j})")
        return Filter(" AND ".join(parts), names, values) if parts else None

    def matches(self, item: Mapping[str, Any]) -> bool:
        """The filter in Python (brute force, tests and the table-scan plan use it)."""
        for name, (low, high) in self.bounds.items():
            value = item.get(name)
            if value is None:
                return False
            if self.wraps(name):
                if not (value >= low or value <= high):
                    return False
            elif (low is not None and value < low) or (high is not None and value > high):
                return False
        return True

    def scope(self, prefix: str) -> str:
        """A canonical text of the query: page tokens are valid for this query only."""
        return f"{prefix}:" + ";".join(
            f"{name}={'' if lo is None else lo}..{'' if hi is None else hi}"
            for name, (lo, hi) in sorted(self.bounds.items())
        )
