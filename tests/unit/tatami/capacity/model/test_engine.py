"""The partition model's documented behaviours, one at a time, on small workloads."""

from __future__ import annotations

from tatami.capacity.model.capacity import Capacity
from tatami.capacity.model.choices import OPTIMISTIC, TOKEN_BUCKET, Choices
from tatami.capacity.model.engine import Simulation
from tatami.capacity.model.keys import key_hash
from tatami.capacity.model.limits import Limits
from tatami.capacity.model.space import ACC_R, ACC_W, THR_QUOTA, THR_TABLE, THR_W, KeySpace
from tatami.capacity.workloads.arrivals import Arrivals, Timed
from tatami.capacity.workloads.clients import BatchLoader
from tatami.capacity.workloads.sdk import ClientConfig, SdkClient


def once() -> SdkClient:
    """A client that never retries: tests of a table's rule need no SDK traffic on top."""
    return SdkClient(ClientConfig(max_attempts=1))


def write(space: KeySpace, key: str, units: float = 1.0, sort_key: bytes = b"", indexes: tuple = ()) -> tuple:
    return (space, key_hash(key), sort_key, units, 0.0, 100, indexes)


def read(space: KeySpace, key: str, units: float = 1.0) -> tuple:
    return (space, key_hash(key), b"", 0.0, units, 0, ())


def per_second(space: KeySpace, column: int, seconds: int) -> list[float]:
    return [space.totals.get(second, (0.0,) * 10)[column] for second in range(seconds)]


def steady(request: tuple, per_tick: int, seconds: int) -> Timed:
    """`per_tick` copies of `request` every 50 ms (retries on top, as the SDK sends them)."""
    return Timed([(tick * 0.05, request, per_tick) for tick in range(seconds * 20)], SdkClient())


def test_one_key_takes_1000_writes_a_second_and_no_more() -> None:
    table = KeySpace("t", Capacity.on_demand(), Limits())
    sim = Simulation([table])
    sim.run(steady(write(table, "hot"), 100, 5))  # 2,000 a second offered
    assert per_second(table, ACC_W, 5) == [1000.0] * 5
    assert sum(1 for part in table.partitions if part.series) == 1  # one partition did it all


def test_a_token_bucket_lets_an_idle_partition_take_two_seconds_in_one() -> None:
    table = KeySpace("t", Capacity.on_demand(), Limits(), choices=Choices(TOKEN_BUCKET))
    offers = [(0.0, write(table, "hot"), 1000), (0.5, write(table, "hot"), 1000)]
    Simulation([table]).run(Timed(offers, once()))
    assert per_second(table, ACC_W, 1) == [1500.0]  # a full second's bucket, then half a second of refill


def test_item_size_rounds_up_so_2_unit_writes_halve_the_rate() -> None:
    table = KeySpace("t", Capacity.on_demand(), Limits())
    sim = Simulation([table])
    sim.run(steady(write(table, "hot", units=2.0), 100, 3))
    assert per_second(table, ACC_W, 3) == [1000.0] * 3  # 500 items a second


def test_reads_and_writes_share_a_partition_as_a_linear_combination() -> None:
    table = KeySpace("t", Capacity.on_demand(), Limits())
    offered = [(0.0, write(table, "k"), 600), (0.0, read(table, "k"), 3000)]
    Simulation([table]).run(Timed(offered, SdkClient()))
    accepted_w, accepted_r = table.totals[0][ACC_W], table.totals[0][ACC_R]
    assert accepted_w == 600
    assert accepted_r == 1200  # 600 W + 1,200 R / 3 = one partition's second


def test_new_on_demand_table_serves_4000_writes_a_second_over_many_keys() -> None:
    table = KeySpace("t", Capacity.on_demand(), Limits())
    choices = [write(table, f"k{i}") for i in range(1000)]
    sim = Simulation([table])
    sim.run(Arrivals(choices, rate=10_000, seconds=5, sdk=SdkClient()))
    accepted = per_second(table, ACC_W, sim.seconds)
    assert len(table.partitions) == 4
    assert all(3800 <= value <= 4000 for value in accepted[:5]), accepted


def test_on_demand_growth_waits_for_an_old_enough_peak_or_not_at_all() -> None:
    # AWS: 30 minutes; 2 here to run fast. The first minute's peak counts 120 s after the minute began.
    limits = Limits.overridden(["on_demand_peak_seconds=120"])
    accepted = {}
    for growth in ("worst case", OPTIMISTIC):
        table = KeySpace("t", Capacity.on_demand(limits=limits), limits, choices=Choices(growth=growth))
        choices = [write(table, f"k{i}") for i in range(400)]
        Simulation([table]).run(Arrivals(choices, rate=9000, seconds=150, sdk=once(), tick=0.25))
        accepted[growth] = per_second(table, ACC_W, 150)
        assert {split.reason for split in table.splits} == {"throughput"}
    worst, optimistic = accepted["worst case"], accepted[OPTIMISTIC]
    assert max(worst[:120]) <= 4000 and min(worst[125:150]) > 7000  # twice the first minute, 120 s on
    assert min(optimistic[65:120]) > 7000  # twice the first minute at once


def test_provisioned_burst_capacity_absorbs_a_spike_for_as_long_as_it_saved() -> None:
    # re:Post's example: 150 units unused for 300 s save 45,000; a load of 200 lasts 45,000 / 50 = 900 s.
    table = KeySpace("t", Capacity.provisioned(150, 1, idle_seconds=300), Limits())
    choices = [write(table, f"k{i}") for i in range(100)]
    sim = Simulation([table])
    sim.run(Arrivals(choices, rate=200, seconds=1000, sdk=once()))
    accepted = per_second(table, ACC_W, sim.seconds)
    assert sum(accepted[:890]) / 890 > 199
    assert sum(accepted[910:1000]) / 90 < 152


def test_a_hot_index_key_throttles_the_base_tables_writes() -> None:
    table = KeySpace("t", Capacity.on_demand(), Limits())
    index = KeySpace("t status", Capacity.on_demand(), Limits())
    gsi_write = ((index, key_hash("PENDING"), b"", 1.0),)
    requests = [write(table, f"order-{i}", indexes=gsi_write) for i in range(3000)]
    sim = Simulation([table, index])
    sim.run(BatchLoader(requests, SdkClient()))
    assert sim.elapsed > 2  # every order spreads over the table, but all share one index key
    assert max(per_second(table, ACC_W, sim.seconds)) == 1000.0
    assert index.totals[0][THR_W] > 0


def test_the_per_table_quota_caps_a_table_warmed_past_it() -> None:
    table = KeySpace("t", Capacity.on_demand(60_000), Limits())
    choices = [write(table, f"k{i}") for i in range(500)]
    Simulation([table]).run(Arrivals(choices, rate=60_000, seconds=3, sdk=once()))
    assert max(per_second(table, ACC_W, 3)) == 40_000  # 60 partitions could serve more; the quota cannot
    assert sum(per_second(table, THR_QUOTA, 3)) > 0 and sum(per_second(table, THR_TABLE, 3)) == 0


def test_provisioned_table_partitions_follow_the_published_rule() -> None:
    assert Capacity.provisioned(10_000, 1).partitions(Limits()) == 11
    assert Capacity.provisioned(3_000, 3_000).partitions(Limits()) == 4
    assert Capacity.on_demand(warm_write=20_000).partitions(Limits()) == 20
    assert "11 partitions" in Capacity.provisioned(10_000).describe(Limits())
