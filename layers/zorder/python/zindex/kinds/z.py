"""The Z index: a sparse GSI whose partition key is a *bucket* (the index name and the address's top
``bucket_bits`` bits: writes spread over buckets) and whose sort key is the binary Z-address of the
item's attributes, in the order listed.

A search becomes one box over the attributes (two when a wrapping attribute crosses its seam); the
planner (:mod:`zindex.kinds.zplanner`) cuts it into address ranges. Its statistics: an equi-depth
histogram of the addresses and one of each attribute's keys (the marginals). A page stops at an address
and any Z plan of the same index can resume there, so every page may be planned afresh.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any, ClassVar, Self

from zindex.cursor import Cursor
from zindex.errors import BadQueryError
from zindex.plan import Candidates, Plan, Position, Reader, Span
from zindex.spec import Index
from zorder import Box, Dimension, Encoding, Schema
from zorder.bigmin import next_in_box
from zorder.encodings import encoding_from_dict, encoding_to_dict

if TYPE_CHECKING:
    from zindex.dynamodb import IndexRepository, ReadResponse
    from zindex.plan import CostModel
    from zindex.query import SearchQuery
    from zindex.spec import IndexedTable
    from zindex.statistics import IndexStats

__all__ = ["ZIndex", "z_ranges"]


@dataclass(frozen=True, slots=True)
class ZIndex(Index):
    """A Z-order GSI over ``attributes`` (most significant first at every bit level).

    ``encodings`` gives an attribute another bit budget in this index than its declared encoding
    (e.g. population as ``UInt(20)`` rather than ``UInt(32)``: zorder aligns every dimension's top bits,
    so fewer bits move an attribute's bits up among the others').
    """

    name: str
    attributes: tuple[str, ...]
    bucket_bits: int
    bucket_attribute: str = "zbucket"
    address_attribute: str = "zaddr"
    encodings: tuple[tuple[str, Encoding], ...] = ()
    kind: ClassVar[str] = "z"

    @property
    def ordered_by(self) -> tuple[str, ...]:
        return self.attributes

    def describe(self) -> str:
        return f"Z over {', '.join(self.attributes)} ({self.bucket_bits} bucket bits)"

    @property
    def written(self) -> tuple[str, ...]:
        return (self.bucket_attribute, self.address_attribute)

    def gsi_keys(self, table: IndexedTable) -> tuple[tuple[str, str], tuple[str, str]]:
        return (self.bucket_attribute, "S"), (self.address_attribute, "B")

    def prepare(self, table: IndexedTable) -> Schema:
        """Its ``zorder.Schema``: the attributes' encodings, or this index's own where it gives one."""
        own = dict(self.encodings)
        schema = Schema(
            tuple(Dimension(n, own.get(n) or table.attribute(n).encoding) for n in self.attributes)
        )
        if not 0 <= self.bucket_bits <= min(16, schema.bits):
            raise ValueError(f"{self.name}: bucket_bits must be within 0..{min(16, schema.bits)}")
        return schema

    # --- keys ---------------------------------------------------------------------------------------
    def keys(self, table: IndexedTable, item: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
        address = table.schema(self.name).encode(values)
        return {
            self.bucket_attribute: self.bucket_name(int.from_bytes(address) >> self.bucket_shift(table)),
            self.address_attribute: address,
        }

    def bucket_shift(self, table: IndexedTable) -> int:
        """Address bits below the bucket bits."""
        return table.schema(self.name).bits - self.bucket_bits

    def bucket_name(self, number: int) -> str:
        """The GSI partition key of bucket ``number``: fixed-width hex, so names sort like numbers.

        >>> ZIndex("places-z", ("a",), 11).bucket_name(10)
        'places-z#00a'
        """
        width = max(1, (self.bucket_bits + 3) // 4)
        return f"{self.name}#{number:0{width}x}"

    def live_buckets(self, table: IndexedTable) -> list[int]:
        """The buckets an item can land in: those the attributes' domains reach (all without domains).

        >>> from zorder import UInt
        >>> from zindex.spec import Attribute, IndexedTable
        >>> t = IndexedTable("T", ("id",), (Attribute("a", UInt(4)), Attribute("b", UInt(4), (0, 7))),
        ...                  (ZIndex("ix", ("a", "b"), 2),))
        >>> t.indexes[0].live_buckets(t)
        [0, 2]
        """
        schema, shift = table.schema(self.name), self.bucket_shift(table)
        domains = {a: table.attribute(a).domain for a in self.attributes}
        lower = {a: low for a, (low, _) in domains.items() if low is not None}
        upper = {a: high for a, (_, high) in domains.items() if high is not None}
        box = schema.box(lower, upper)
        layout = box.layout
        found = []
        for number in range(box.zmin >> shift, (box.zmax >> shift) + 1):
            first, last = number << shift, ((number + 1) << shift) - 1
            lo, hi = layout.deinterleave(first), layout.deinterleave(last)
            if all(a <= u and b >= w for a, b, w, u in zip(lo, hi, box.lower, box.upper, strict=True)):
                found.append(number)
        return found

    # --- statistics ---------------------------------------------------------------------------------
    def key_bits(self, table: IndexedTable) -> tuple[int, tuple[int, ...]]:
        schema = table.schema(self.name)
        return schema.bits, tuple(d.bits for d in schema.dimensions)

    def sample(
        self, table: IndexedTable, item: Mapping[str, Any], keys: Mapping[str, Any]
    ) -> tuple[int, tuple[int, ...]]:
        address = int.from_bytes(keys[self.address_attribute])
        return address, tuple(table.schema(self.name).layout.deinterleave(address))

    # --- plans --------------------------------------------------------------------------------------
    def boxes(self, query: SearchQuery) -> list[Box]:
        """The query's box, or two when a wrapping attribute crosses its seam.

        Bounds are saturated into each attribute's domain, as the addresses are: a bound above the
        domain's ceiling looks among the items indexed at the ceiling, and the filter keeps the right ones.
        """
        table = query.table
        lower: dict[str, Any] = {}
        upper: dict[str, Any] = {}
        for name in self.attributes:
            attribute = table.attribute(name)
            low, high = query.bounds.get(name, (None, None))
            floor, ceiling = attribute.domain
            if not query.wraps(name):
                low = floor if low is None else attribute.saturate(low)
                high = ceiling if high is None else attribute.saturate(high)
            for side, value in ((lower, low), (upper, high)):
                if value is not None:
                    side[name] = query.typed(name, value)
        schema = table.schema(self.name)
        _check_encodable(schema, lower, upper)
        wrapped = [n for n in self.attributes if query.wraps(n)]
        if not wrapped:
            return [schema.box(lower, upper)]
        name = wrapped[0]  # one wrapping attribute per query box; the others are plain ranges
        east = schema.box(lower, {k: v for k, v in upper.items() if k != name})
        west = schema.box({k: v for k, v in lower.items() if k != name}, upper)
        return [west, east]

    def plans(self, query: SearchQuery, stats: IndexStats, model: CostModel, bound: float) -> Candidates:
        """Its cheapest cut set of address ranges, one ``BETWEEN`` per bucket and the BIGMIN walk; the
        matches expected are the planner's leaves' (what the boxes hold)."""
        from zindex.kinds.zplanner import ZPlanner  # here: a declaration need not load the planner

        planner = ZPlanner(self, self.boxes(query), stats, self.bucket_shift(query.table), model, bound)
        return Candidates(planner.candidates(), planner.results)

    def reader(self, repository: IndexRepository, plan: Plan, query: SearchQuery) -> Reader:
        return ZReader(repository, plan, query, self)

    def family(self, plan: Plan) -> str:
        return f"z:{self.name}"  # every Z plan of the index reads address order

    def explained(self, plan: Plan) -> dict[str, Any]:
        return {"ranges": z_ranges(plan)}  # so that they can be drawn

    # --- advice ------------------------------------------------------------------------------------
    @classmethod
    def proposals(cls, table: IndexedTable) -> list[Self]:
        """A Z index over all the attributes and, beyond two, one over each pair (8 bucket bits).

        >>> from zorder import UInt
        >>> from zindex.spec import Attribute, IndexedTable
        >>> abc = tuple(Attribute(n, UInt(8)) for n in "abc")
        >>> t = IndexedTable("T", ("id",), abc, (ZIndex("z", ("a",), 2),))
        >>> [i.name for i in ZIndex.proposals(t)]
        ['z-a-b-c', 'z-a-b', 'z-a-c', 'z-b-c']
        """
        names = [a.name for a in table.attributes]
        groups = [tuple(names)] + ([tuple(p) for p in combinations(names, 2)] if len(names) > 2 else [])
        found = []
        for n, group in enumerate(groups):
            bits = sum(table.attribute(a).encoding.bits for a in group)
            found.append(cls("z-" + "-".join(group), group, min(8, bits), f"zb{n}", f"za{n}"))
        return found

    # --- JSON ---------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "attributes": list(self.attributes),
            "bucket_bits": self.bucket_bits,
            "bucket_attribute": self.bucket_attribute,
            "address_attribute": self.address_attribute,
            "encodings": [[name, encoding_to_dict(e)] for name, e in self.encodings],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        fields = {k: v for k, v in data.items() if k not in ("attributes", "encodings")}
        encodings = tuple((name, encoding_from_dict(e)) for name, e in data.get("encodings", []))
        return cls(**fields, attributes=tuple(data["attributes"]), encodings=encodings)


def _check_encodable(schema: Schema, lower: Mapping[str, Any], upper: Mapping[str, Any]) -> None:
    """A bound the encoding cannot place (a date before its first instant as an upper bound, say) is a
    400 naming it, not an error inside the planner."""
    dimensions = {d.name: d for d in schema.dimensions}
    for suffix, values, is_upper in (("min", lower, False), ("max", upper, True)):
        for name, value in values.items():
            try:
                dimensions[name].bound(value, upper=is_upper)
            except (TypeError, ValueError) as exc:
                raise BadQueryError(f"{name}_{suffix}", str(exc)) from None


def z_ranges(plan: Plan) -> list[tuple[str, str]]:
    """A Z plan's spans as address ranges in hex (first, last), in the order the plan reads them.

    >>> from zindex.plan import Estimate
    >>> z = ZIndex("z", ("a",), 2)
    >>> z_ranges(Plan("z-ranges", "z", (Span(0, 10, 255),), Estimate(1, 1, 1, 0.5), access=z))
    [('a', 'ff')]
    """
    return [(f"{span.first:x}", f"{span.last:x}") for span in plan.spans]


class ZReader(Reader):
    """Z spans: one bucket, addresses ``first..last``; BIGMIN past entries outside the boxes."""

    def __init__(self, repository: IndexRepository, plan: Plan, query: SearchQuery, index: ZIndex) -> None:
        super().__init__(repository, plan, query)
        self.index, self.boxes = index, index.boxes(query)
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
        index = self.index
        first = position[0] if position[0] is not None else span.first
        page = self.repository.query_index(
            index.name,
            "#kb = :kb AND #kz BETWEEN :kf AND :kl",
            {"#kb": index.bucket_attribute, "#kz": index.address_attribute},
            {
                ":kb": index.bucket_name(span.partition),
                ":kf": first.to_bytes(self.nbytes),
                ":kl": span.last.to_bytes(self.nbytes),
            },
            self.filter,
            limit,
            position[1],
        )
        if page.last_key is None:
            return page, None
        last = int.from_bytes(page.last_key[index.address_attribute])
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
