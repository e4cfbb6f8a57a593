"""What a workload costs in both capacity modes, priced from its demand with the one home for prices."""

from __future__ import annotations

import pytest

from tatami.capacity.model.capacity import Capacity
from tatami.capacity.model.prices import HOURS_PER_MONTH, Prices
from tatami.capacity.reports.cost import workload_cost
from tatami.capacity.reports.run import simulate
from tatami.capacity.workloads.builders import Mix, Schedule, Setting, counter_workload, mix_workload
from tatami.capacity.workloads.demand import Demand

PRICES = Prices()
SECONDS = HOURS_PER_MONTH * 3600


def test_keyed_increments_bill_four_write_units_each_plain_ones_one() -> None:
    plain = simulate(counter_workload("votes", 10, 100, 10, Setting())).cost
    keyed = simulate(counter_workload("votes", 10, 100, 10, Setting(), keyed=1.0)).cost
    assert plain.on_demand == pytest.approx(100 * SECONDS * PRICES.write_request_unit)
    assert keyed.on_demand == pytest.approx(4 * plain.on_demand)  # 2 on the shard, 2 on the key's record
    assert keyed.provisioned == pytest.approx(
        PRICES.provisioned_monthly(write_capacity_units=400, read_capacity_units=0)
    )


def test_eventually_consistent_reads_cost_half_and_an_index_bills_its_own_writes() -> None:
    def cost(consistent: bool, gsi: int | None = None) -> float:
        mix = Mix(
            100,
            Schedule.steady(100),
            Schedule.steady(1000),
            item_bytes=500,
            consistent=consistent,
            gsi_keys=gsi,
        )
        return simulate(mix_workload("mix", mix, 5, Setting())).cost.on_demand

    writes = 100 * SECONDS * PRICES.write_request_unit
    assert cost(True) - writes == pytest.approx(2 * (cost(False) - writes))
    assert cost(False, gsi=10) == pytest.approx(cost(False) + writes)


def test_a_provisioned_setting_is_priced_as_configured_beside_its_peak() -> None:
    report = simulate(counter_workload("votes", 10, 100, 10, Setting(Capacity.provisioned(1000, 10))))
    cost = report.cost
    assert cost.configured == pytest.approx(
        PRICES.provisioned_monthly(write_capacity_units=1000, read_capacity_units=10)
    )
    assert cost.provisioned < cost.configured  # it holds ten times what its peak needs
    assert "as configured here: $" in cost.text and "auto scaling at 70%" in cost.text


def test_a_changing_load_is_priced_at_its_mean_on_demand_and_its_peak_provisioned() -> None:
    demand = Demand()
    demand.add("table", [100.0] * 30 + [300.0] * 30, write=1.0, read=0.0)
    cost = workload_cost(demand)
    assert cost.on_demand == pytest.approx(200 * SECONDS * PRICES.write_request_unit)
    assert cost.provisioned == pytest.approx(
        PRICES.provisioned_monthly(write_capacity_units=300, read_capacity_units=0)
    )
    assert cost.autoscaled == pytest.approx(
        PRICES.provisioned_monthly(write_capacity_units=200 / 0.7, read_capacity_units=0)
    )
