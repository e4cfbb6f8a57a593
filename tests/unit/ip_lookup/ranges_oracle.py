"""Generated IP datasets, the in-memory bisect oracle lookups must agree with, and a Query-faithful
in-memory table: shared by the unit, functional and integration tests of the IP lookup service."""

from __future__ import annotations

import bisect
import csv
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from tatami.ip_loader.plan import Plan
from tatami_functions.ip_lookup.addresses import BITS, V4, V6, Address
from tatami_functions.ip_lookup.keys import Found, Pointer, found_from_item

MAX = {V4: (1 << 32) - 1, V6: (1 << 128) - 1}


@dataclass(frozen=True)
class Range:
    family: int
    start: int
    end: int
    data: dict[str, str]


class Oracle:
    """The containing range by bisecting the sorted starts (no partitions, no gaps, no DynamoDB)."""

    def __init__(self, ranges: Iterable[Range]) -> None:
        self.by_family = {
            f: sorted((r for r in ranges if r.family == f), key=lambda r: r.start) for f in (V4, V6)
        }
        self.starts = {f: [r.start for r in rs] for f, rs in self.by_family.items()}

    def __call__(self, address: Address) -> Range | None:
        index = bisect.bisect_right(self.starts[address.family], address.value) - 1
        if index < 0:
            return None
        found = self.by_family[address.family][index]
        return found if address.value <= found.end else None


def expected_body(address: Address, found: Range | None) -> dict[str, Any] | None:
    if found is None:
        return None
    start, end = Address(found.family, found.start), Address(found.family, found.end)
    return {"address": str(address), "start": str(start), "end": str(end), "data": found.data}


def write_csv(path: Path, ranges: Iterable[Range], network: bool = False) -> Path:
    with path.open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["start", "end", "name"])
        for r in ranges:
            writer.writerow([Address(r.family, r.start), Address(r.family, r.end), r.data["name"]])
    return path


@st.composite
def _family_ranges(draw: st.DrawFn, family: int, bases: list[int]) -> list[Range]:
    """Ranges and gaps between sorted cut points that cluster around partition boundaries."""
    host_bits = BITS[family] - (8 if family == V4 else 24)
    near = st.sampled_from(bases).flatmap(
        lambda base: st.one_of(
            st.just(base << host_bits),
            st.just(((base + 1) << host_bits) - 1),
            st.integers(base << host_bits, ((base + 1) << host_bits) - 1),
        )
    )
    points = sorted(set(draw(st.lists(st.one_of(near, st.sampled_from([0, MAX[family]])), max_size=12))))
    kept = draw(st.lists(st.booleans(), min_size=len(points), max_size=len(points)))
    ranges = []
    for index, (point, keep) in enumerate(zip(points, kept, strict=True)):
        end = points[index + 1] - 1 if index + 1 < len(points) else MAX[family]
        if keep and point <= end:
            ranges.append(Range(family, point, end, {"name": f"r{family}-{index}"}))
    return ranges


@st.composite
def datasets(draw: st.DrawFn) -> list[Range]:
    """IPv4 over a few adjacent /8s and the extremes; IPv6 over a few adjacent /24s and the extremes.

    IPv6 ranges stay within a handful of partitions (a row spanning millions of /24s is rejected).
    """
    v4_base = draw(st.integers(0, 253))
    v6_base = draw(st.sampled_from([0, 0x200100, 0x2606FF, (1 << 24) - 3]))
    v4 = draw(_family_ranges(V4, [v4_base, v4_base + 1, v4_base + 2]))
    v6 = draw(_family_ranges(V6, [v6_base, v6_base + 1, v6_base + 2]))
    if v6 and any(r.end >> 104 > (r.start >> 104) + 3 for r in v6):
        v6 = [r for r in v6 if r.end >> 104 <= (r.start >> 104) + 3]
    return v4 + v6


def probes(ranges: Iterable[Range]) -> list[Address]:
    """Every range's first and last address and their neighbours, plus both families' extremes."""
    values = {(V4, 0), (V4, MAX[V4]), (V6, 0), (V6, MAX[V6])}
    for r in ranges:
        for value in (r.start - 1, r.start, r.end, r.end + 1, (r.start + r.end) // 2):
            if 0 <= value <= MAX[r.family]:
                values.add((r.family, value))
    return [Address(f, v) for f, v in sorted(values)]


class MemoryTable:
    """The planned items answering `find` exactly as the Query does: greatest sk <= address."""

    def __init__(self, planned: Plan, version: int = 1) -> None:
        self.pointer_value = Pointer(version, planned.ipv4_prefix, planned.ipv6_prefix)
        self.partitions: dict[str, list[tuple[bytes, dict[str, Any]]]] = {}
        for piece in planned.pieces:
            item = piece.item(version)
            self.partitions.setdefault(item["pk"]["S"], []).append((item["sk"]["B"], item))
        for items in self.partitions.values():
            items.sort(key=lambda pair: pair[0])
        self.queries = 0

    def pointer(self) -> Pointer:
        return self.pointer_value

    def find(self, pointer: Pointer, address: Address) -> tuple[Found | None, float]:
        self.queries += 1
        items = self.partitions.get(pointer.partition_key(address), [])
        index = bisect.bisect_right([sk for sk, _ in items], address.packed) - 1
        return (found_from_item(items[index][1]) if index >= 0 else None), 0.5
