"""What a workload costs an hour and a month, in both capacity modes, if it ran like this all the time.

Priced from what the workload asks of every table and index without its retries (`Demand`: a
throttled request is not billed, and a retry of it is the same request), with the one home for
prices (`model.prices.Prices`: us-east-1 list prices, sourced and dated):

- on-demand: the mean request units a second, billed per million;
- provisioned for the peak: the busiest second's units held all the time (no throttling from the
  table, whatever the hour);
- provisioned with auto scaling: the mean units over its target utilization (70% is what the
  console sets: AutoScaling.html), which follows the load but reacts in minutes (two one-minute
  periods above target, then the table update), so a step up throttles meanwhile;
- storage: what a bulk load writes, kept a month (the first 25 GB are free).

GSIs are billed like tables for their own writes and storage: every key space of the run counts.

>>> for part in Cost(on_demand=164.25, provisioned=47.45, autoscaled=40.0).text.split("; "):
...     print(part)
on-demand $0.23/h ($164/month)
provisioned for the peak $0.07/h ($47.45/month)
auto scaling at 70%: about $40.00/month
"""

from __future__ import annotations

from dataclasses import dataclass

from tatami.capacity.model.capacity import ON_DEMAND, Capacity
from tatami.capacity.model.prices import HOURS_PER_MONTH, Prices
from tatami.capacity.reports.verdict import dollars
from tatami.capacity.workloads.demand import Demand

__all__ = ["AUTO_SCALING_TARGET", "Cost", "configured_cost", "workload_cost"]

AUTO_SCALING_TARGET = 0.7  # the console's default target utilization (AutoScaling.html: 20%-90% allowed)
GB = 1024**3


@dataclass(frozen=True)
class Cost:
    """Monthly USD of the workload as it ran, sustained: on-demand, provisioned (peak, auto scaled), data."""

    on_demand: float
    provisioned: float
    autoscaled: float
    storage: float = 0.0
    configured: float | None = None  # the run's own setting, when a table or index of it is provisioned
    once: float | None = None  # a bulk load: what loading it costs on-demand, once

    @property
    def cheaper(self) -> str:
        return "on-demand" if self.on_demand <= self.provisioned else "provisioned"

    @property
    def text(self) -> str:
        hour = HOURS_PER_MONTH
        storage = f"; storage {dollars(self.storage)}/month" if self.storage else ""
        if self.configured is not None:
            storage += f"; as configured here: {dollars(self.configured)}/month"
        if self.once is not None:
            storage = f"; the load itself, on-demand: {dollars(self.once)} once{storage}"
        return (
            f"on-demand {dollars(self.on_demand / hour)}/h ({dollars(self.on_demand)}/month); provisioned "
            f"for the peak {dollars(self.provisioned / hour)}/h ({dollars(self.provisioned)}/month); auto "
            f"scaling at {AUTO_SCALING_TARGET:.0%}: about {dollars(self.autoscaled)}/month{storage}"
        )


def configured_cost(
    demand: Demand, settings: dict[str, Capacity], prices: Prices | None = None
) -> float | None:
    """What the run's own setting costs a month: provisioned units as set, on-demand ones as used; None when
    every key space is on-demand (then it is the on-demand figure).

    >>> demand = Demand(); demand.add("table", [100.0] * 60, write=1.0, read=0.0)
    >>> round(configured_cost(demand, {"table": Capacity.provisioned(1000, 10)}), 2)
    475.45
    """
    if all(setting.mode == ON_DEMAND for setting in settings.values()):
        return None
    prices, total = prices or Prices(), 0.0
    for space, setting in settings.items():
        if setting.mode == ON_DEMAND:
            total += workload_cost(demand.only(space), prices=prices).on_demand
        else:
            total += prices.provisioned_monthly(
                write_capacity_units=setting.write_units, read_capacity_units=setting.read_units
            )
    return total


def workload_cost(demand: Demand, stored_bytes: float = 0.0, prices: Prices | None = None) -> Cost:
    """The cost of serving `demand` (every key space) all month, and of keeping `stored_bytes`.

    >>> demand = Demand(); demand.add("table", [100.0] * 60, write=1.0, read=0.0)
    >>> round(workload_cost(demand).on_demand, 2), round(workload_cost(demand).provisioned, 2)
    (164.25, 47.45)
    """
    prices = prices or Prices()
    on_demand = provisioned = autoscaled = 0.0
    for space in demand.spaces():
        (mean_w, mean_r), (peak_w, peak_r) = demand.mean(space), demand.peak(space)
        on_demand += prices.on_demand_monthly(write_units_per_second=mean_w, read_units_per_second=mean_r)
        provisioned += prices.provisioned_monthly(write_capacity_units=peak_w, read_capacity_units=peak_r)
        autoscaled += prices.provisioned_monthly(
            write_capacity_units=mean_w / AUTO_SCALING_TARGET,
            read_capacity_units=mean_r / AUTO_SCALING_TARGET,
        )
    return Cost(on_demand, provisioned, autoscaled, prices.storage_monthly(stored_bytes / GB))
