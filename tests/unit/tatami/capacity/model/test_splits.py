"""Splits for heat (and when DynamoDB does not split), for size, inside an item collection."""

from __future__ import annotations

import random

from tatami.capacity.model.capacity import Capacity
from tatami.capacity.model.engine import Simulation
from tatami.capacity.model.keys import HASH_SPACE, key_hash, sort_bytes
from tatami.capacity.model.limits import Limits
from tatami.capacity.model.space import ACC_W, KeySpace
from tatami.capacity.workloads.clients import Arrivals, Loader

FAST_HEAT = Limits.overridden(["heat_split_seconds=10"])  # AWS: minutes; shortened to run fast


def keys_in_first_partition(count: int) -> list[str]:
    keys = (f"key-{n}" for n in range(100_000))
    return [key for key in keys if key_hash(key) < HASH_SPACE // 4][:count]


def accepted(table: KeySpace, seconds: range) -> float:
    return sum(table.totals.get(second, (0.0,) * 7)[ACC_W] for second in seconds) / len(seconds)


def test_a_partition_hot_with_many_keys_splits_and_serves_more() -> None:
    table = KeySpace("t", Capacity.on_demand(), FAST_HEAT)
    choices = [(table, key_hash(key), b"", 1.0, 0.0, 100, ()) for key in keys_in_first_partition(20)]
    Simulation([table]).run(Arrivals(choices, rate=2000, seconds=40))
    assert [split.reason for split in table.splits][:1] == ["heat"]
    assert accepted(table, range(0, 8)) <= 1000
    assert accepted(table, range(30, 40)) > 1700


def test_sequential_writes_to_one_key_never_split() -> None:
    table = KeySpace("t", Capacity.on_demand(), FAST_HEAT)
    requests = [(table, key_hash("0"), sort_bytes(n), 1.0, 0.0, 100, ()) for n in range(40_000)]
    sim = Simulation([table])
    sim.run(Loader(requests))
    assert table.splits == []
    assert sim.seconds == 40  # 1,000 a second throughout: a split could not have helped


def test_one_hot_item_never_splits() -> None:
    table = KeySpace("t", Capacity.on_demand(), FAST_HEAT)
    Simulation([table]).run(Arrivals([(table, key_hash("votes"), b"", 1.0, 0.0, 0, ())], 2000, 30))
    assert table.splits == []


def test_random_sort_keys_split_inside_the_item_collection() -> None:
    table = KeySpace("t", Capacity.on_demand(), FAST_HEAT)
    hot = key_hash("device-1")
    rng = random.Random(3)
    choices = [(table, hot, sort_bytes(rng.randrange(10**9)), 1.0, 0.0, 100, ()) for _ in range(500)]
    Simulation([table]).run(Arrivals(choices, rate=2000, seconds=40))
    assert table.splits and table.splits[0].reason == "heat"
    inside = [low for low in table.lows if low[0] == hot and low[1]]
    assert inside, "the split point lies between sort keys of the one partition key"
    assert accepted(table, range(30, 40)) > 1700


def test_a_partition_past_its_size_limit_splits_at_the_median_of_its_data() -> None:
    limits = Limits.overridden(["partition_bytes=1000000"])  # AWS: 10 GB; 1 MB keeps the test small
    table = KeySpace("t", Capacity.on_demand(), limits)
    requests = [(table, key_hash(f"k{n}"), b"", 1.0, 0.0, 1000, ()) for n in range(8000)]
    Simulation([table]).run(Loader(requests))
    assert {split.reason for split in table.splits} == {"size"}
    assert all(part.stored <= 1_000_000 for part in table.partitions)
    assert len(table.partitions) >= 8  # 8 MB in partitions of at most 1 MB
