"""A table's (or an index's) table-level allowances: its throughput, its quotas, on-demand growth.

Whatever its partitions could serve, a table serves at most its provisioned units, its on-demand
allowance, its on-demand maximum throughput and the per-table quota. An on-demand table's
allowance grows with its traffic, as the chosen reading of AWS's words says (`choices.growth`): to
twice the busiest minute that began at least 30 minutes ago (the documented worst case: "throttling
can occur if you exceed double your previous peak within 30 minutes", so a peak reached at a
minute's start counts 30 minutes later), or twice the busiest minute so far (the optimistic
bound); either way never past the quota. The table then wants enough partitions for the new
allowance, and serves what its partitions serve: whole partitions of 1,000 write units, so a
peak a little short of a round figure (a few requests its partitions refused) does not shrink the
next doubling, and partitions added by splits for heat raise it too.
"""

from __future__ import annotations

import math

from tatami.capacity.model.allowance import TableLimit
from tatami.capacity.model.capacity import ON_DEMAND, QUOTA, Capacity, quota_limits
from tatami.capacity.model.choices import OPTIMISTIC, Choices
from tatami.capacity.model.limits import Limits

__all__ = ["TableAllowance"]


class TableAllowance:
    """The table-level limits of one key space, and the partitions its throughput asks for."""

    def __init__(self, capacity: Capacity, limits: Limits, choices: Choices) -> None:
        self.capacity, self.limits, self.choices = capacity, limits, choices
        self.limits_list: list[TableLimit] = capacity.allowances(limits, choices)
        self.single: TableLimit | None = self.limits_list[0] if len(self.limits_list) == 1 else None
        self.write_rate = capacity.write_units  # on-demand: the current allowance, units a second
        self._minutes: list[float] = []  # write units used per minute (on-demand peak tracking)
        self._minute_used = 0.0

    def fit(self, write: float, read: float, now: float) -> tuple[float, str]:
        """How many requests of `write` and `read` units it still admits, and which rule binds."""
        fit, kind = math.inf, ""
        for limit in self.limits_list:
            cost = write * limit.write_cost + read * limit.read_cost
            if cost:
                here = limit.allowance.available(now) / cost
                if here < fit:
                    fit, kind = here, limit.kind
        return fit, kind

    def take(self, write: float, read: float) -> None:
        for limit in self.limits_list:
            limit.allowance.left -= write * limit.write_cost + read * limit.read_cost

    def renew(self) -> None:
        for limit in self.limits_list:
            limit.allowance.renew()

    @property
    def has_quota(self) -> bool:
        return any(limit.kind == QUOTA for limit in self.limits_list)

    def follow_peak(self, second: int, used: float) -> int:
        """On-demand: after each minute, the allowance follows the peak; the partitions it wants."""
        if self.capacity.mode != ON_DEMAND:
            return 0
        self._minute_used += used
        if (second + 1) % 60:
            return 0
        self._minutes.append(self._minute_used / 60)
        self._minute_used = 0.0
        # A minute's peak counts once the minute *began* 30 minutes ago (its first second may hold it).
        wait = (
            0 if self.choices.growth == OPTIMISTIC else math.ceil(self.limits.on_demand_peak_seconds / 60) - 1
        )
        old_enough = self._minutes[: len(self._minutes) - max(0, wait)]
        rate = self.limits.on_demand_peak_factor * max(old_enough, default=0.0)
        if rate <= self.write_rate:
            return 0
        self._grow(rate)
        served = min(rate, self.limits.table_write_quota)
        return math.ceil(served / self.limits.partition_write_units)

    def follow_partitions(self, count: int) -> None:
        """On-demand: the table serves what its `count` partitions serve (whole partitions)."""
        if self.capacity.mode == ON_DEMAND:
            served = count * self.limits.partition_write_units
            if served > self.write_rate:
                self._grow(served)

    def _grow(self, rate: float) -> None:
        self.write_rate = rate
        self.limits_list[0].allowance.raise_to(rate)  # reads keep their ratio: the read cost stays
        if not self.has_quota:
            read = rate * self.capacity.read_units / self.capacity.write_units
            self.limits_list += quota_limits(self.limits, self.choices, rate, read)
            self.single = self.limits_list[0] if len(self.limits_list) == 1 else None
