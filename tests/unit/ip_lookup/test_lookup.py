"""Lookups over planned items (ip_lookup/service.py) against the bisect oracle; the pointer cache."""

from __future__ import annotations

from typing import Any, cast

from hypothesis import HealthCheck, given, settings

from tatami.ip_loader.plan import plan
from tatami.ip_loader.source import Row
from tatami_functions.ip_lookup.addresses import Address, parse_address
from tatami_functions.ip_lookup.keys import Found, Pointer
from tatami_functions.ip_lookup.repository import RangesRepository
from tatami_functions.ip_lookup.service import PointerCache, resolve
from tests.unit.ip_lookup.ranges_oracle import MemoryTable, Oracle, Range, datasets, expected_body, probes


def rows_of(ranges: list[Range]) -> list[Row]:
    return [
        Row(f"gen.csv:{n + 2}", Address(r.family, r.start), Address(r.family, r.end), r.data)
        for n, r in enumerate(ranges)
    ]


def cache_over(table: Any, ttl: float = 30.0, clock: Any = None) -> PointerCache:
    return (
        PointerCache(cast(RangesRepository, table), ttl, clock)
        if clock
        else PointerCache(cast(RangesRepository, table), ttl)
    )


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(datasets())
def test_lookups_over_the_planned_items_equal_the_bisect_oracle(ranges: list[Range]) -> None:
    oracle, table = Oracle(ranges), MemoryTable(plan(rows_of(ranges)))
    addresses = probes(ranges)
    outcomes = resolve([str(a) for a in addresses], cache_over(table)).answers
    for address, outcome in zip(addresses, outcomes, strict=True):
        expected = expected_body(address, oracle(address))
        assert (outcome.body if outcome.status == 200 else None) == expected, address
        assert outcome.status == (200 if expected else 404)


def test_one_query_per_distinct_address_and_a_bad_address_in_its_own_slot() -> None:
    table = MemoryTable(plan(rows_of([Range(4, 0x0A000000, 0x0AFFFFFF, {"name": "ten"})])))
    resolution = resolve(["10.1.2.3", "nope", "10.1.2.3", "11.0.0.0", 42], cache_over(table))
    assert [o.status for o in resolution.answers] == [200, 400, 200, 404, 400]
    assert resolution.answers[1].body == {
        "address": "nope",
        "message": "address: 'nope' is not an IPv4 or IPv6 address",
    }
    assert table.queries == 2 and resolution.version == 1


class SwitchingTable:
    """Version 1 answers from a stale pointer whose partition was already removed; version 2 is live."""

    def __init__(self) -> None:
        self.version, self.reads = 1, 0

    def pointer(self) -> Pointer:
        self.reads += 1
        return Pointer(self.version)

    def find(self, pointer: Pointer, address: Address) -> tuple[Found | None, float]:
        if pointer.version == 1:
            return None, 0.5  # the old version is gone
        return Found("10.0.0.0", "10.255.255.255", parse_address("10.255.255.255"), {"v": "2"}), 0.5


def test_a_miss_under_a_stale_pointer_rereads_the_alias_and_answers_the_whole_batch_again() -> None:
    table, now = SwitchingTable(), [0.0]
    cache = cache_over(table, ttl=30, clock=lambda: now[0])
    assert resolve(["10.0.0.1"], cache).answers[0].status == 404  # read at t=0: v1, and nothing is there
    table.version, now[0] = 2, 5.0  # switched; the cached pointer is 5 s old, within its 30 s TTL
    resolution = resolve(["10.0.0.1", "10.0.0.2"], cache)
    assert resolution.version == 2
    assert [o.body["data"] for o in resolution.answers] == [{"v": "2"}, {"v": "2"}]


def test_misses_reread_the_alias_at_most_once_a_second() -> None:
    table, now = SwitchingTable(), [100.0]
    cache = cache_over(table, ttl=30, clock=lambda: now[0])
    for _ in range(5):
        resolve(["10.0.0.1"], cache)
    assert table.reads == 1
    now[0] += 1.5
    resolve(["10.0.0.1"], cache)
    assert table.reads == 2


def test_the_pointer_is_cached_for_its_ttl() -> None:
    table = MemoryTable(plan(rows_of([Range(4, 0, 10, {"name": "low"})])))
    reads, now = [0], [0.0]
    original = table.pointer

    def counted() -> Pointer:
        reads[0] += 1
        return original()

    table.pointer = counted  # type: ignore[method-assign]
    cache = cache_over(table, ttl=30, clock=lambda: now[0])
    for t in (0.0, 10.0, 29.9):
        now[0] = t
        assert resolve(["0.0.0.5"], cache).answers[0].status == 200
    now[0] = 30.0
    resolve(["0.0.0.5"], cache)
    assert reads[0] == 2


class EmptyTable:
    def pointer(self) -> None:
        return None


def test_no_dataset_loaded_is_a_404_that_says_so() -> None:
    outcome = resolve(["8.8.8.8"], cache_over(EmptyTable())).answers[0]
    assert outcome.status == 404 and "no IP dataset is loaded" in outcome.body["message"]
