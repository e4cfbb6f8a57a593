"""Each diagnosis: a workload that produces it, and one that must not (the issue's item 1).

The verdict is data (`Verdict.diagnoses`: kind, keys, finding, fix); the tests read the data and
check the words a user acts on in its text.
"""

from __future__ import annotations

from collections.abc import Callable

from tatami.capacity.model.capacity import Capacity
from tatami.capacity.model.choices import CORNERS
from tatami.capacity.model.keys import key_hash
from tatami.capacity.model.limits import Limits
from tatami.capacity.reports.report import Report
from tatami.capacity.reports.run import simulate
from tatami.capacity.reports.verdict import Verdict
from tatami.capacity.workloads.builders import (
    FILE_ORDER,
    SHUFFLED,
    Setting,
    Workload,
    counter_workload,
    keys_workload,
    reads_workload,
)
from tatami.capacity.workloads.clients import BatchLoader
from tatami.capacity.workloads.sdk import ClientConfig

BLOCKS = [(f"block-{key}", row) for key in range(50) for row in range(2000)]  # 50 keys x 2,000 rows


def verdict(workload: Workload) -> Verdict:
    report = simulate(workload)
    assert report.verdict is not None
    return report.verdict


def heat_splits(report: Report) -> int:
    return sum(1 for split in report.splits["table"] if split.reason == "heat")


def test_a_file_order_block_load_is_a_rolling_hot_partition_fixed_by_shuffling() -> None:
    found = verdict(keys_workload("blocks", BLOCKS, Setting(), order=FILE_ORDER))
    assert found.kinds == ["rolling hot partition"]
    (rolling,) = found.diagnoses
    assert rolling.keys[:3] == ("block-0", "block-1", "block-2")  # the keys hot in their windows, in turn
    assert "block-0 (0-" in rolling.finding and "shuffle" in rolling.fix
    shuffled = verdict(keys_workload("blocks", BLOCKS, Setting(), order=SHUFFLED))
    assert "rolling hot partition" not in shuffled.kinds


def test_counter_shards_on_one_partition_are_a_collision_priced_both_ways() -> None:
    # seed 0 puts votes#0 and votes#1 on one of a new table's four partitions; votes#2 and votes#3,
    # alone at their partitions' 1,000 a second, overflow them when more than their mean arrives
    found = verdict(counter_workload("votes", 4, 4000, 30, Setting()))
    assert found.kinds == ["shard collision", "hot item"]  # the collision loses the most
    assert set(found.diagnoses[0].keys) == {"votes#0", "votes#1"}
    assert set(found.diagnoses[1].keys) == {"votes#2", "votes#3"}
    assert "with 8 shards" in found.diagnoses[0].fix and "warmed to 8,000" in found.diagnoses[0].fix
    alone = verdict(counter_workload("votes", 4, 2400, 30, Setting(Capacity.on_demand(40_000), seed=3)))
    assert not alone.throttled and alone.kinds == []  # 40 partitions: each shard alone, at 60%


def test_a_provisioned_table_short_of_wcu_is_told_to_raise_wcu_and_does_not_split_for_heat() -> None:
    # the counters at 4,000/s on 2,000 WCU, with the shortest split delay AWS's words allow
    once = ClientConfig(max_attempts=1)  # no retries: only the table's refusals, fast
    setting = Setting(Capacity.provisioned(2000), choices=CORNERS["optimistic"], client=once)
    report = simulate(counter_workload("votes", 1000, 4000, 120, setting))
    assert report.verdict is not None and report.verdict.kinds == ["table limit"]
    assert "raise WCU" in report.verdict.diagnoses[0].fix
    assert heat_splits(report) == 0  # its partitions run at 67-75%: the table's refusals are not heat
    roomy = verdict(counter_workload("votes", 1000, 1500, 30, Setting(Capacity.provisioned(2000))))
    assert not roomy.throttled


def test_a_new_on_demand_table_past_its_4000_is_told_to_warm_up() -> None:
    found = verdict(counter_workload("votes", 200, 8000, 20, Setting()))
    assert found.kinds[0] == "table limit" and "warm" in found.diagnoses[0].fix
    assert not verdict(counter_workload("votes", 200, 2000, 20, Setting())).throttled


def test_60000_a_second_on_a_warmed_table_names_the_per_table_quota() -> None:
    found = verdict(counter_workload("votes", 200, 60_000, 10, Setting(Capacity.on_demand(60_000))))
    assert found.kinds[0] == "quota"
    assert "quota increase" in found.diagnoses[0].fix and "40,000" in found.diagnoses[0].finding
    below = verdict(counter_workload("votes", 200, 30_000, 10, Setting(Capacity.on_demand(40_000))))
    assert "quota" not in below.kinds


def test_one_item_written_past_its_partition_is_a_hot_item_to_shard() -> None:
    found = verdict(counter_workload("votes", 1, 3000, 20, Setting()))
    assert found.kinds == ["hot item"] and found.keys == ["votes#0"]
    assert "shard the item" in found.diagnoses[0].fix
    sorted_keys = verdict(keys_workload("device", [("device", n) for n in range(6000)], Setting()))
    assert sorted_keys.kinds == ["hot key"]  # many items of one partition key: a hot key, not an item
    assert "more partition key values" in sorted_keys.diagnoses[0].fix


def test_one_hot_item_read_5000_times_a_second_eventually_consistent_is_a_hot_item() -> None:
    found = verdict(reads_workload("reads", 1, 5000, 20, Setting()))
    assert not found.throttled  # 2,500 of a partition's 3,000 read units: near, not over
    assert found.kinds == ["hot item"] and found.keys == ["item-0"]
    assert "83%" in found.diagnoses[0].finding and "cache" in found.diagnoses[0].fix
    spread = verdict(reads_workload("reads", 1000, 5000, 20, Setting()))
    assert spread.kinds == [] and not spread.throttled


def test_strongly_consistent_reads_of_large_items_throttle_a_hot_item() -> None:
    found = verdict(reads_workload("reads", 1, 5000, 10, Setting(), item_bytes=8000, consistent=True))
    assert found.throttled and found.kinds == ["hot item"]  # 2 units a read: 10,000 a second


def test_an_item_collection_at_its_size_limit_with_an_lsi_names_the_collection() -> None:
    limits = Limits.overridden(["item_collection_bytes=100000"])  # AWS: 10 GB; 100 KB keeps it small
    rows = [("device", n) for n in range(2000)]
    found = verdict(keys_workload("lsi", rows, Setting(limits=limits, lsi=True)))
    assert found.kinds[0] == "item collection full" and found.keys[0] == "device"
    assert "global secondary index" in found.diagnoses[0].fix
    assert "item collection full" not in verdict(keys_workload("no lsi", rows, Setting(limits=limits))).kinds


def test_many_keys_on_a_partition_none_dominant_is_a_busy_partition() -> None:
    found = verdict(counter_workload("votes", 200, 30_000, 10, Setting(Capacity.on_demand(40_000))))
    assert found.kinds == ["busy partition"]
    spread = verdict(counter_workload("votes", 2000, 20_000, 5, Setting(Capacity.on_demand(40_000))))
    assert not spread.throttled and spread.kinds == []


def test_a_hot_index_key_is_named_on_its_index_as_back_pressure() -> None:
    setting = Setting(client=ClientConfig(latency=0.0125))  # one writer: 2,000 items a second
    pending = key_hash("PENDING")

    def orders(status: Callable[[int], int]) -> Workload:
        """3,000 orders spread over the table, each writing its status into the index."""
        table, index = setting.space("orders"), setting.space("orders status", index=True)
        requests = [
            (table, key_hash(f"order-{n}"), b"", 1.0, 0.0, 100, ((index, status(n), b"", 1.0),))
            for n in range(3000)
        ]
        labels = {("orders status", pending): "PENDING"}
        return Workload("orders", [table, index], BatchLoader(requests, setting.sdk()), labels)

    found = verdict(orders(lambda _: pending))
    assert found.diagnoses[0].space == "orders status" and found.keys[0] == "PENDING"
    assert "GSI back pressure" in found.diagnoses[0].finding
    assert not verdict(orders(lambda n: key_hash(f"status-{n}"))).throttled  # statuses spread out
