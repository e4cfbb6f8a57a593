"""What a month costs, in dollars: storage, writes and searches, at on-demand and at provisioned prices
(``tatami.capacity.model.prices``, the one home of prices), for the Z index and two designs it replaces.

* **Z index** (the engine, as measured): the table, its Z GSI and its population GSI; a write is the
  user's write and the maintainer's; a search is the plan the optimizer chose.
* **Filtered BETWEEN**: the same table and indexes, each search one ``BETWEEN zmin AND zmax`` per bucket
  with the bounds as a filter (the engine's ``z-between`` candidate, run to its end).
* **Single-attribute GSI**: a GSI sorted by latitude (4 shards, as the engine's sorted index), written
  with the item (no maintainer); a search reads the box's latitude band and filters the rest, a search
  without latitude bounds is a Scan. Its reads are counted from the places (every entry in the band,
  half a unit per 4 KB), its writes by DynamoDB's GSI rules (2 units for a new place, 3 for a move).

Storage counts DynamoDB's 100 bytes of overhead per item and per index entry. Provisioned capacity is
held at the rate used divided by 0.7, the target utilization of DynamoDB's auto scaling by default.
"""

from __future__ import annotations

from dataclasses import dataclass

from tatami.capacity.model.prices import Prices

__all__ = ["PROVISIONED_UTILIZATION", "STORAGE_OVERHEAD_BYTES", "Design", "Month", "month"]

DOCS = "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/"
STORAGE_OVERHEAD_BYTES = 100  # per item and per GSI entry: DOCS + "CapacityUnitCalculations.html", "GSI.html"
PROVISIONED_UTILIZATION = 0.7  # auto scaling's default target: DOCS + "AutoScaling.html"
GB = 1024**3


@dataclass(frozen=True)
class Design:
    """One way of serving the searches: what it stores, and the units a write and a search take."""

    name: str
    storage_bytes: float  # the table and its GSIs, overhead included
    write_units_per_write: float
    read_units_per_search: float


@dataclass(frozen=True)
class Month:
    """A month of one design at a steady rate of searches and writes, in USD."""

    design: str
    storage: float
    writes_on_demand: float
    reads_on_demand: float
    writes_provisioned: float
    reads_provisioned: float

    @property
    def on_demand(self) -> float:
        return self.storage + self.writes_on_demand + self.reads_on_demand

    @property
    def provisioned(self) -> float:
        return self.storage + self.writes_provisioned + self.reads_provisioned


def month(
    design: Design, searches_per_second: float, writes_per_second: float, prices: Prices | None = None
) -> Month:
    """A month of ``design`` at these rates.

    >>> m = month(Design("d", 200 * 1024**3, 4.0, 0.5), searches_per_second=100, writes_per_second=10)
    >>> round(m.storage, 2), round(m.on_demand, 2), round(m.provisioned, 2)
    (43.75, 125.88, 77.64)
    """
    prices = prices or Prices()
    writes, reads = (
        design.write_units_per_write * writes_per_second,
        design.read_units_per_search * searches_per_second,
    )
    held = 1 / PROVISIONED_UTILIZATION
    return Month(
        design.name,
        prices.storage_monthly(design.storage_bytes / GB),
        prices.on_demand_monthly(write_units_per_second=writes, read_units_per_second=0),
        prices.on_demand_monthly(write_units_per_second=0, read_units_per_second=reads),
        prices.provisioned_monthly(write_capacity_units=writes * held, read_capacity_units=0),
        prices.provisioned_monthly(write_capacity_units=0, read_capacity_units=reads * held),
    )
