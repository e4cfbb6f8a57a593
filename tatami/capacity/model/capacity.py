"""A table's (or a global secondary index's) capacity settings, and the allowances that enforce them.

Two modes, as DynamoDB has them:

- on-demand: the table serves up to its warm throughput at once (a new table: 4,000 write units or
  12,000 read units per second, or a linear combination of both, AWS's words), and twice its
  previous peak once that peak is 30 minutes old (or at once: `choices` has both readings);
- provisioned: the table serves its WCU and RCU, plus burst capacity (unused capacity saved for up
  to 300 s; a new table has saved none unless `idle_seconds` says it sat unused before the load).

Either way the per-table quota (40,000 write and 40,000 read units a second by default) caps what
the table serves, however warm or provisioned it is. An on-demand table may also have a maximum
throughput (MaxWriteRequestUnits, MaxReadRequestUnits: on-demand-capacity-mode-max-throughput.html),
a cap its owner sets on cost: requests past it are throttled.

Either way the table starts with enough partitions for its throughput: `ceil(WCU/1000 + RCU/3000)`
for provisioned capacity (the rule AWS published in GuidelinesForTables.html#GuidelinesForTables
.Partitions; the seed: 10,000 WCU need "at least 10 partitions") and `ceil(max(W/1000, R/3000))`
for warm throughput, whose read and write values are alternatives (AWS: "4,000 write request units
or 12,000 read request units, or a linear combination of both": four partitions, exactly what seed
003 says of a new on-demand table).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass

from tatami.capacity.model.allowance import Allowance, Bucket, TableLimit
from tatami.capacity.model.choices import TOKEN_BUCKET, Choices
from tatami.capacity.model.limits import Limits

__all__ = ["MAXIMUM", "ON_DEMAND", "PROVISIONED", "QUOTA", "TABLE", "Capacity", "quota_limits"]

ON_DEMAND, PROVISIONED = "on-demand", "provisioned"
TABLE, QUOTA, MAXIMUM = "table", "quota", "maximum"  # the rule a table-level allowance enforces


@dataclass(frozen=True, slots=True)
class Capacity:
    """How a table is provisioned. Use `Capacity.on_demand()` or `Capacity.provisioned(wcu, rcu)`.

    >>> Capacity.on_demand().describe(), Capacity.on_demand().partitions(Limits())
    ('on-demand (warm 4,000 W / 12,000 R per second)', 4)
    >>> Capacity.provisioned(10_000, 1).partitions(Limits())
    11
    """

    mode: str
    write_units: float  # provisioned WCU, or on-demand warm write units per second
    read_units: float
    idle_seconds: float = 0.0  # provisioned: how long it sat unused before (burst capacity saved)
    max_write: float | None = None  # on-demand maximum throughput (MaxWriteRequestUnits), if set
    max_read: float | None = None  # ... and MaxReadRequestUnits

    def __post_init__(self) -> None:
        if self.mode not in (ON_DEMAND, PROVISIONED):
            raise ValueError(f"capacity mode {self.mode!r} must be {ON_DEMAND!r} or {PROVISIONED!r}")
        if self.write_units <= 0 or self.read_units <= 0 or self.idle_seconds < 0:
            raise ValueError("write and read units must be positive and idle seconds not negative")
        maxima = [value for value in (self.max_write, self.max_read) if value is not None]
        if maxima and self.mode != ON_DEMAND:
            raise ValueError("a maximum throughput applies to on-demand tables (provisioned: its WCU/RCU)")
        if any(value <= 0 for value in maxima):
            raise ValueError("a maximum throughput must be positive")

    @classmethod
    def on_demand(
        cls, warm_write: float | None = None, warm_read: float | None = None, limits: Limits | None = None
    ) -> Capacity:
        """On-demand with this warm throughput, never below a new table's (warm throughput only rises).

        Given only `warm_write`, reads scale with it as a new table's do (three read units each).
        """
        limits = limits or Limits()
        write = max(warm_write or 0.0, limits.on_demand_write_units)
        ratio = limits.on_demand_read_units / limits.on_demand_write_units
        read = max(warm_read or write * ratio, limits.on_demand_read_units)
        return cls(ON_DEMAND, write, read)

    def with_maximum(self, write: float | None, read: float | None = None) -> Capacity:
        """This on-demand capacity with a maximum throughput (requests past it are throttled).

        >>> Capacity.on_demand().with_maximum(2000).describe()
        'on-demand (warm 4,000 W / 12,000 R per second, at most 2,000 W)'
        """
        return dataclasses.replace(self, max_write=write, max_read=read)

    @classmethod
    def provisioned(cls, wcu: float, rcu: float = 1.0, idle_seconds: float = 0.0) -> Capacity:
        return cls(PROVISIONED, wcu, rcu, idle_seconds)

    def partitions(self, limits: Limits) -> int:
        """Partitions a new table gets for this throughput."""
        write = self.write_units / limits.partition_write_units
        read = self.read_units / limits.partition_read_units
        needed = write + read if self.mode == PROVISIONED else max(write, read)
        return max(1, math.ceil(round(needed, 9)))

    def allowances(self, limits: Limits, choices: Choices) -> list[TableLimit]:
        """The table-level allowances: its throughput, then the per-table quotas where they bind."""
        make = _maker(choices, limits)
        if self.mode == ON_DEMAND:  # one allowance, reads and writes as a linear combination
            table = [TableLimit(make(self.write_units), 1.0, self.write_units / self.read_units, TABLE)]
        else:
            table = [
                TableLimit(_burst(units, self.idle_seconds, limits, choices), write, 1 - write, TABLE)
                for units, write in ((self.write_units, 1.0), (self.read_units, 0.0))
            ]
        maxima = ((self.max_write, 1.0), (self.max_read, 0.0))
        table += [TableLimit(make(cap), cost, 1 - cost, MAXIMUM) for cap, cost in maxima if cap is not None]
        return table + quota_limits(limits, choices, self.write_units, self.read_units)

    def partition_allowance(self, limits: Limits, choices: Choices) -> Allowance:
        return _maker(choices, limits)(limits.partition_write_units)

    def describe(self, limits: Limits | None = None) -> str:
        """The setting in words; given the limits, with the partitions a new table gets for it.

        >>> Capacity.provisioned(10_000).describe(Limits())
        'provisioned 10,000 WCU / 1 RCU (11 partitions: ceil(WCU/1,000 + RCU/3,000))'
        """
        if self.mode == ON_DEMAND:
            maxima = [
                f"{cap:,.0f} {kind}" for cap, kind in ((self.max_write, "W"), (self.max_read, "R")) if cap
            ]
            most = f", at most {' / '.join(maxima)}" if maxima else ""
            text = f"on-demand (warm {self.write_units:,.0f} W / {self.read_units:,.0f} R per second{most})"
        else:
            idle = f", idle {self.idle_seconds:,.0f} s before" if self.idle_seconds else ""
            text = f"provisioned {self.write_units:,.0f} WCU / {self.read_units:,.0f} RCU{idle}"
        if limits is None:
            return text
        rule = "WCU/{:,.0f} + RCU/{:,.0f}" if self.mode == PROVISIONED else "max(W/{:,.0f}, R/{:,.0f})"
        rule = rule.format(limits.partition_write_units, limits.partition_read_units)
        over = self.write_units > limits.table_write_quota
        quota = f"; writes above the per-table quota of {limits.table_write_quota:,.0f}" if over else ""
        return f"{text} ({self.partitions(limits)} partitions: ceil({rule}){quota})"


def quota_limits(limits: Limits, choices: Choices, write: float, read: float) -> list[TableLimit]:
    """The quota allowances a table serving `write` and `read` units a second runs into (if any)."""
    make = _maker(choices, limits)
    quotas = ((write, limits.table_write_quota, 1.0), (read, limits.table_read_quota, 0.0))
    return [TableLimit(make(quota), cost, 1 - cost, QUOTA) for units, quota, cost in quotas if units > quota]


def _maker(choices: Choices, limits: Limits) -> Callable[[float], Allowance]:
    """An allowance of `units` a second, accounted as the choices say (calendar second or bucket)."""
    if choices.accounting == TOKEN_BUCKET:
        return lambda units: Bucket(units, depth=limits.window_seconds, level=units * limits.window_seconds)
    return lambda units: Allowance(units * limits.window_seconds, window=limits.window_seconds)


def _burst(units: float, idle: float, limits: Limits, choices: Choices) -> Allowance:
    """A provisioned allowance with burst capacity: up to `burst_seconds` of unused units saved."""
    saved = units * min(idle, limits.burst_seconds)
    if choices.accounting == TOKEN_BUCKET:
        window = limits.window_seconds
        return Bucket(units, depth=window + limits.burst_seconds, level=units * window + saved)
    return Allowance(
        units * limits.window_seconds, units * limits.burst_seconds, saved, limits.window_seconds
    )
