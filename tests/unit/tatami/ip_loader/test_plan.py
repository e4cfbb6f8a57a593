"""Planning (tatami/ip_loader/plan.py): gaps filled, ranges cut at partition boundaries, chunks."""

from __future__ import annotations

import itertools
from collections import defaultdict

import pytest
from hypothesis import HealthCheck, given, settings

from tatami.ip_loader.exceptions import InvalidSourceError
from tatami.ip_loader.plan import MAX_PIECES_PER_ROW, chunks, plan
from tatami.ip_loader.source import Row
from tatami_functions.ip_lookup.addresses import V4, V6, Address, parse_address, prefix_of
from tatami_functions.ip_lookup.keys import Piece
from tests.unit.ip_lookup.ranges_oracle import Range, datasets


def row(start: str, end: str, line: int = 2, **data: str) -> Row:
    return Row(f"r.csv:{line}", parse_address(start), parse_address(end), dict(data))


def spans(pieces: list[Piece]) -> list[tuple[str, str, str, bool]]:
    return [
        (
            str(p.prefix),
            str(Address(p.prefix.family, p.first)),
            str(Address(p.prefix.family, p.last)),
            p.data is None,
        )
        for p in pieces
    ]


def test_gaps_before_between_and_after_ranges_of_one_partition() -> None:
    planned = plan([row("1.0.0.0", "1.0.0.255", 2), row("1.0.4.0", "1.0.7.255", 3)])
    assert spans(planned.pieces) == [
        ("1.0.0.0/8", "1.0.0.0", "1.0.0.255", False),
        ("1.0.0.0/8", "1.0.1.0", "1.0.3.255", True),
        ("1.0.0.0/8", "1.0.4.0", "1.0.7.255", False),
        ("1.0.0.0/8", "1.0.8.0", "1.255.255.255", True),
    ]
    assert (planned.rows, planned.gaps, planned.splits, len(planned.per_partition)) == (2, 2, 0, 1)


def test_a_range_across_partitions_is_split_and_keeps_its_own_bounds() -> None:
    planned = plan([row("9.255.255.0", "11.0.0.9", asn="1")])
    assert spans(planned.pieces) == [
        ("9.0.0.0/8", "9.0.0.0", "9.255.254.255", True),
        ("9.0.0.0/8", "9.255.255.0", "9.255.255.255", False),
        ("10.0.0.0/8", "10.0.0.0", "10.255.255.255", False),
        ("11.0.0.0/8", "11.0.0.0", "11.0.0.9", False),
        ("11.0.0.0/8", "11.0.0.10", "11.255.255.255", True),
    ]
    assert {(p.start, p.end) for p in planned.pieces if p.data} == {("9.255.255.0", "11.0.0.9")}
    assert planned.splits == 2 and planned.gaps == 2


def test_the_whole_address_spaces() -> None:
    planned = plan([row("0.0.0.0", "255.255.255.255"), row("::", "ffff::", 3)], ipv6_prefix=8)
    assert len(planned.pieces) == 256 + 256 + 1  # ffff:: is in the last /8; the rest of it is a gap
    assert planned.splits == 255 + 255 and planned.gaps == 1


def test_every_partition_starts_with_an_item_and_is_covered_without_holes() -> None:
    planned = plan([row("1.2.3.4", "1.2.3.4"), row("2001:db8::", "2001:db8::ff", 3)])
    by_prefix: dict[object, list[Piece]] = defaultdict(list)
    for piece in planned.pieces:
        by_prefix[piece.prefix].append(piece)
    for prefix, pieces in by_prefix.items():
        pieces.sort(key=lambda p: p.first)
        assert pieces[0].first == prefix.low and pieces[-1].last == prefix.high  # type: ignore[attr-defined]
        assert all(a.last + 1 == b.first for a, b in itertools.pairwise(pieces))


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(datasets())
def test_generated_datasets_plan_into_covered_partitions(ranges: list[Range]) -> None:
    rows = [
        Row(f"g:{n}", Address(r.family, r.start), Address(r.family, r.end), r.data)
        for n, r in enumerate(ranges)
    ]
    planned = plan(rows)
    covered = sum(p.last - p.first + 1 for p in planned.pieces)
    partitions = planned.per_partition
    assert covered == sum(1 << (32 - 8 if p.family == V4 else 128 - 24) for p in partitions)
    assert sum(1 for p in planned.pieces if p.data is not None) == len(ranges) + planned.splits


def test_a_row_spanning_too_many_partitions_is_refused() -> None:
    with pytest.raises(InvalidSourceError, match=r"r.csv:2: ::-ffff::ffff spans 16,776,961 /24 partitions"):
        plan([row("::", "ffff::ffff")])
    assert MAX_PIECES_PER_ROW == 65_536
    plan([row("::", "ff:ff00::")])  # 65,536 /24s: the limit itself is fine


def test_chunks_are_shuffled_deterministically_per_load() -> None:
    planned = plan([row(f"10.0.{n}.0", f"10.0.{n}.255", n + 2) for n in range(100)])
    first, again = chunks(planned.pieces, "load-a", 40), chunks(planned.pieces, "load-a", 40)
    assert [len(c) for c in first] == [40, 40, 21] and first == again
    assert first != chunks(planned.pieces, "load-b", 40)
    assert [p.first for p in first[0]] != sorted(p.first for p in first[0])
    assert prefix_of(parse_address("10.0.0.0"), 8).family == V4 != V6
