"""Issue 39's shapes at test size: each verdict names the cause and the fix with the number to set.

The numbers come from what the load asks (its demand), never from its retries; each fix carries
what to set (`Fix.setting`), the number (`Fix.value`) and, where the bill changes, its monthly cost.
"""

from __future__ import annotations

import pytest

from tatami.capacity.model.capacity import Capacity
from tatami.capacity.model.limits import Limits
from tatami.capacity.model.space import THR_TABLE
from tatami.capacity.reports.report import Report
from tatami.capacity.reports.run import simulate
from tatami.capacity.reports.verdict import Diagnosis, Fix
from tatami.capacity.workloads.builders import (
    EXPORT,
    FILE_ORDER,
    Mix,
    Schedule,
    Setting,
    counter_workload,
    keys_workload,
    mix_workload,
)
from tatami.capacity.workloads.sdk import ClientConfig

# A table a tenth of AWS's (partitions of 100 write units, a new table at 400, peaks counting after
# 2 minutes) so that a ramp by the rule runs in seconds; every rule is the same, scaled. Its callers
# do not retry: the rule is judged on what the load asks, whatever the retries add.
SMALL = Limits.overridden(
    [
        "partition_write_units=100",
        "partition_read_units=300",
        "on_demand_write_units=400",
        "on_demand_read_units=1200",
        "on_demand_peak_seconds=120",
    ]
)
SMALL_TABLE = Setting(Capacity.on_demand(limits=SMALL), SMALL, client=ClientConfig(max_attempts=1))


def diagnosis(report: Report, kind: str) -> Diagnosis:
    assert report.verdict is not None
    found = [entry for entry in report.verdict.diagnoses if entry.kind == kind]
    assert found, report.verdict.text
    return found[0]


def fix(found: Diagnosis, setting: str) -> Fix:
    fixes = [entry for entry in found.fixes if entry.setting == setting]
    assert fixes, found.text
    return fixes[0]


def test_keys_changing_every_300_rows_are_an_ordered_load_to_shuffle_with_its_rate() -> None:
    keys = [(f"user-{key}", row) for key in range(100) for row in range(300)]
    report = simulate(keys_workload("fast keys", keys, Setting(), order=FILE_ORDER))
    rolling = diagnosis(report, "rolling hot partition")
    shuffled = fix(rolling, "order")
    assert shuffled.value is not None and 1.5 * report.throughput < shuffled.value <= 4000
    assert "key order" in rolling.finding and "collision" not in str(report.verdict)


def test_an_export_reloaded_in_its_own_order_is_told_to_shuffle() -> None:
    keys = [(f"user-{n}", 0) for n in range(20_000)]
    report = simulate(keys_workload("export", keys, Setting(), order=EXPORT))
    shuffled = fix(diagnosis(report, "rolling hot partition"), "order")
    assert shuffled.value is not None and shuffled.value > 3 * report.throughput


def test_a_ramp_that_keeps_the_doubling_rule_is_not_told_to_ramp() -> None:
    ramp = Schedule.parse("400,800@2m,1600@4m")
    report = simulate(mix_workload("ramp", Mix(100, writes=ramp, item_bytes=500), 360, SMALL_TABLE))
    assert report.totals("table")[THR_TABLE] == 0  # the table's own limit grew in time
    assert report.verdict is not None and "ramp by the rule" not in report.verdict.text
    found = report.verdict.diagnoses[0]
    assert fix(found, "warm throughput").value == 2000  # 1,600 at 80% of 100-unit partitions


def test_a_ramp_faster_than_the_rule_is_told_how_to_ramp_by_it() -> None:
    ramp = Schedule.parse("400,1600@2m")
    report = simulate(mix_workload("jump", Mix(100, writes=ramp, item_bytes=500), 240, SMALL_TABLE))
    assert report.verdict is not None
    found = next(entry for entry in report.verdict.diagnoses if entry.kind == "table limit")
    assert "past 2x its peak of 2 minutes before" in found.finding
    steps = fix(found, "ramp")
    assert (
        steps.value == 1600
        and "400/s from minute 0, 800/s from minute 2, 1,600/s from minute 4" in steps.text
    )


def test_keyed_increments_on_one_shard_are_sharded_for_their_two_units_each() -> None:
    report = simulate(counter_workload("votes", 1, 600, 20, Setting(), keyed=1.0))
    assert fix(diagnosis(report, "hot item"), "shards").value == 2  # 1,200 units a second on one item


def test_a_gsi_short_of_capacity_is_given_its_own_writes_not_the_tables_or_the_retries() -> None:
    setting = Setting(Capacity.provisioned(10_000, 100), index_capacity=Capacity.provisioned(500, 1))
    mix = Mix(1000, writes=Schedule.steady(2000), gsi_keys=1000)
    report = simulate(mix_workload("indexed writes", mix, 15, setting))
    found = diagnosis(report, "table limit")
    assert found.space == "table gsi" and "GSI back pressure" in found.finding
    wcu = fix(found, "WCU")
    assert wcu.value == 2000 and wcu.monthly == pytest.approx(2000 * 0.00065 * 730)
    assert "give the index its own WCU: 2,000" in wcu.text


def test_a_provisioned_table_is_told_the_wcu_its_load_asks_not_what_its_retries_sent() -> None:
    setting = Setting(Capacity.provisioned(2000), client=ClientConfig(max_attempts=4))
    report = simulate(counter_workload("votes", 200, 4000, 10, setting))
    assert fix(diagnosis(report, "table limit"), "WCU").value == 4000
    assert report.verdict is not None and report.verdict.seen[0].retries > 4000 * 10 * 0.2


def test_a_hot_key_read_and_written_gets_eventually_consistent_reads_and_spread_writes() -> None:
    mix = Mix(
        1000, Schedule.steady(500), Schedule.steady(6000), item_bytes=2000, consistent=True, hot_share=0.5
    )
    found = diagnosis(simulate(mix_workload("mixed", mix, 15, Setting())), "hot key")
    assert found.keys == ("key-0",)
    assert fix(found, "ConsistentRead").text.startswith("eventually consistent reads (half the units")
    assert fix(found, "shards").value == 2 and fix(found, "item bytes").value == 1024
    assert fix(found, "cache") and fix(found, "copies").value == 2


def test_an_on_demand_maximum_names_itself_and_the_rate_to_raise_it_to() -> None:
    setting = Setting(Capacity.on_demand().with_maximum(2000))
    found = diagnosis(simulate(counter_workload("votes", 200, 3000, 10, setting)), "maximum throughput")
    assert fix(found, "maximum throughput").value == 3000 and "cap on the bill" in found.fix


def test_the_quota_is_asked_for_at_the_loads_own_rate() -> None:
    report = simulate(counter_workload("votes", 200, 60_000, 5, Setting(Capacity.on_demand(60_000))))
    assert fix(diagnosis(report, "quota"), "quota").value == 60_000
