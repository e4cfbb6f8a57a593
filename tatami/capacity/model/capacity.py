"""A table's (or a global secondary index's) capacity settings, and the allowances that enforce them.

Two modes, as DynamoDB has them:

- on-demand: the table serves up to its warm throughput at once (a new table: 4,000 write units or
  12,000 read units per second, or a linear combination of both, AWS's words), and twice its
  previous peak once that peak is 30 minutes old;
- provisioned: the table serves its WCU and RCU, plus burst capacity (unused capacity saved for up
  to 300 s; a new table has saved none unless `idle_seconds` says it sat unused before the load).

Either way the table starts with enough partitions for its throughput: `ceil(WCU/1000 + RCU/3000)`
for provisioned capacity (the rule AWS published in GuidelinesForTables.html#GuidelinesForTables
.Partitions; the seed: 10,000 WCU need "at least 10 partitions") and `ceil(max(W/1000, R/3000))`
for warm throughput, whose read and write values are alternatives (AWS: "4,000 write request units
or 12,000 read request units, or a linear combination of both": four partitions, exactly what seed
003 says of a new on-demand table).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tatami.capacity.model.limits import Limits

__all__ = ["Allowance", "Capacity"]

ON_DEMAND, PROVISIONED = "on-demand", "provisioned"


class Allowance:
    """What may still be consumed in the current accounting window (one second).

    `limit` units a window; a `reserve` (burst capacity) saves what a window leaves unused, up to
    `reserve_cap`, and lends it when a window needs more than its limit. `renew` opens the next
    window.
    """

    __slots__ = ("left", "limit", "reserve", "reserve_cap", "start")

    def __init__(self, limit: float, reserve_cap: float = 0.0, reserve: float = 0.0) -> None:
        self.limit, self.reserve_cap = limit, reserve_cap
        self.reserve = min(reserve, reserve_cap)
        self.left = self.start = limit + self.reserve

    def renew(self) -> None:
        used = self.start - self.left
        self.reserve = min(self.reserve_cap, max(0.0, self.reserve + self.limit - used))
        self.left = self.start = self.limit + self.reserve


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

    def __post_init__(self) -> None:
        if self.mode not in (ON_DEMAND, PROVISIONED):
            raise ValueError(f"capacity mode {self.mode!r} must be {ON_DEMAND!r} or {PROVISIONED!r}")
        if self.write_units <= 0 or self.read_units <= 0 or self.idle_seconds < 0:
            raise ValueError("write and read units must be positive and idle seconds not negative")

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

    @classmethod
    def provisioned(cls, wcu: float, rcu: float = 1.0, idle_seconds: float = 0.0) -> Capacity:
        return cls(PROVISIONED, wcu, rcu, idle_seconds)

    def partitions(self, limits: Limits) -> int:
        """Partitions a new table gets for this throughput."""
        write = self.write_units / limits.partition_write_units
        read = self.read_units / limits.partition_read_units
        needed = write + read if self.mode == PROVISIONED else max(write, read)
        return max(1, math.ceil(round(needed, 9)))

    def allowances(self, limits: Limits) -> list[tuple[Allowance, float, float]]:
        """The table-level allowances, each with its cost per write unit and per read unit."""
        window = limits.window_seconds
        if self.mode == ON_DEMAND:  # one allowance, reads and writes as a linear combination
            return [(Allowance(self.write_units * window), 1.0, self.write_units / self.read_units)]
        return [
            (
                Allowance(units * window, units * limits.burst_seconds, units * self.idle_seconds),
                write,
                1 - write,
            )
            for units, write in ((self.write_units, 1.0), (self.read_units, 0.0))
        ]

    def describe(self) -> str:
        if self.mode == ON_DEMAND:
            return f"on-demand (warm {self.write_units:,.0f} W / {self.read_units:,.0f} R per second)"
        idle = f", idle {self.idle_seconds:,.0f} s before" if self.idle_seconds else ""
        return f"provisioned {self.write_units:,.0f} WCU / {self.read_units:,.0f} RCU{idle}"
