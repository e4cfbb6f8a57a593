"""Splits for heat (and when DynamoDB does not split), for size, inside an item collection."""

from __future__ import annotations

import random

import pytest

from tatami.capacity.model.capacity import Capacity
from tatami.capacity.model.choices import CORNERS, Choices
from tatami.capacity.model.engine import Simulation
from tatami.capacity.model.keys import HASH_SPACE, key_hash, sort_bytes
from tatami.capacity.model.limits import Limits
from tatami.capacity.model.space import ACC_W, KeySpace
from tatami.capacity.workloads.arrivals import Arrivals
from tatami.capacity.workloads.clients import BatchLoader
from tatami.capacity.workloads.sdk import ClientConfig, SdkClient

FAST_HEAT = Choices(split_delay=10)  # AWS: minutes; shortened to run fast


def once() -> SdkClient:
    """Callers that never retry: the split rules need no SDK traffic on top."""
    return SdkClient(ClientConfig(max_attempts=1))


def new_table(limits: Limits | None = None, lsi: bool = False) -> KeySpace:
    return KeySpace("t", Capacity.on_demand(), limits or Limits(), choices=FAST_HEAT, lsi=lsi)


def keys_in_first_partition(count: int) -> list[str]:
    keys = (f"key-{n}" for n in range(100_000))
    return [key for key in keys if key_hash(key) < HASH_SPACE // 4][:count]


def accepted(table: KeySpace, seconds: range) -> float:
    return sum(table.totals.get(second, (0.0,) * 7)[ACC_W] for second in seconds) / len(seconds)


def test_a_partition_hot_with_many_keys_splits_and_serves_more() -> None:
    table = new_table()
    choices = [(table, key_hash(key), b"", 1.0, 0.0, 100, ()) for key in keys_in_first_partition(20)]
    Simulation([table]).run(Arrivals(choices, rate=2000, seconds=40, sdk=once()))
    assert [split.reason for split in table.splits][:1] == ["heat"]
    assert accepted(table, range(0, 8)) <= 1000
    assert accepted(table, range(30, 40)) > 1700


def test_sequential_writes_to_one_key_never_split() -> None:
    table = new_table()
    requests = [(table, key_hash("0"), sort_bytes(n), 1.0, 0.0, 100, ()) for n in range(40_000)]
    sim = Simulation([table])
    sim.run(BatchLoader(requests, SdkClient()))
    assert table.splits == []
    assert max(accepted(table, range(second, second + 1)) for second in range(sim.seconds)) == 1000
    # at most 1,000 a second throughout (the SDK's backoff loses some seconds): no split could help


def test_one_hot_item_never_splits() -> None:
    table = new_table()
    Simulation([table]).run(Arrivals([(table, key_hash("votes"), b"", 1.0, 0.0, 0, ())], 2000, 30, once()))
    assert table.splits == []


def test_random_sort_keys_split_inside_the_item_collection() -> None:
    table = new_table()
    hot = key_hash("device-1")
    rng = random.Random(3)
    choices = [(table, hot, sort_bytes(rng.randrange(10**9)), 1.0, 0.0, 100, ()) for _ in range(500)]
    Simulation([table]).run(Arrivals(choices, rate=2000, seconds=40, sdk=once()))
    assert table.splits and table.splits[0].reason == "heat"
    inside = [low for low in table.lows if low[0] == hot and low[1]]
    assert inside, "the split point lies between sort keys of the one partition key"
    assert accepted(table, range(30, 40)) > 1700


def test_a_partition_past_its_size_limit_splits_at_the_median_of_its_data() -> None:
    limits = Limits.overridden(["partition_bytes=1000000"])  # AWS: 10 GB; 1 MB keeps the test small
    table = KeySpace("t", Capacity.on_demand(), limits)
    requests = [(table, key_hash(f"k{n}"), b"", 1.0, 0.0, 1000, ()) for n in range(8000)]
    Simulation([table]).run(BatchLoader(requests, SdkClient()))
    assert {split.reason for split in table.splits} == {"size"}
    assert all(part.stored <= 1_000_000 for part in table.partitions)
    assert len(table.partitions) >= 8  # 8 MB in partitions of at most 1 MB


def test_with_a_local_secondary_index_a_hot_collection_never_splits_inside() -> None:
    hot = key_hash("device-1")
    rng = random.Random(3)
    for lsi in (False, True):
        table = new_table(lsi=lsi)
        choices = [(table, hot, sort_bytes(rng.randrange(10**9)), 1.0, 0.0, 100, ()) for _ in range(500)]
        Simulation([table]).run(Arrivals(choices, rate=2000, seconds=40, sdk=once()))
        inside = [low for low in table.lows if low[0] == hot and low[1]]
        assert bool(inside) is not lsi  # the same traffic splits the collection only without an LSI
        if lsi:
            assert accepted(table, range(30, 40)) <= 1000


def test_with_a_local_secondary_index_an_item_collection_stops_at_its_size_limit() -> None:
    limits = Limits.overridden(["item_collection_bytes=100000", "partition_bytes=1000000"])  # AWS: 10 GB
    for lsi in (False, True):
        table = new_table(limits, lsi=lsi)
        requests = [(table, key_hash("device-1"), sort_bytes(n), 1.0, 0.0, 100, ()) for n in range(2000)]
        loader = BatchLoader(requests, SdkClient())
        Simulation([table]).run(loader)
        assert loader.stats.failed == (1000 if lsi else 0)  # 100 KB of 100-byte items, the rest refused
        assert sum(table.refused_keys.values()) == loader.stats.failed


@pytest.mark.parametrize("corner", list(CORNERS))
def test_a_40000_a_second_warm_up_ends_within_twice_the_partitions_it_needs(corner: str) -> None:
    # A new on-demand table offered 40,000 writes a second (its quota) over 500 keys. Its allowance
    # doubles with each old-enough peak (AWS: 30 minutes; 60 s here to run fast) and partitions split
    # for heat only when their own limit is the pressure: it ends near the 40 the traffic needs.
    limits = Limits.overridden(["on_demand_peak_seconds=60"])
    table = KeySpace("t", Capacity.on_demand(limits=limits), limits, choices=CORNERS[corner])
    choices = [(table, key_hash(f"k{n}"), b"", 1.0, 0.0, 0, ()) for n in range(500)]
    Simulation([table]).run(Arrivals(choices, 40_000, 600, once(), tick=1.0))
    assert 40 <= len(table.partitions) <= 80
    assert accepted(table, range(590, 600)) > 30_000
