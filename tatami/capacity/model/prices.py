"""What DynamoDB capacity and storage cost, in dollars, each price with the page it comes from.

One home for prices: the capacity reports (`tatami capacity`) and the Z-index cost bench both price
through `Prices`. The defaults are AWS's public list prices for us-east-1, Standard table class, in
effect since 2024-11-01 (on-demand throughput halved then: AWS What's New, 2024-11-14). AWS's pages
could not be read live from this machine; the figures were checked on 2026-12-06 against stored
copies of the pages below and of secondary sources quoting them. Other regions and the Standard-IA
class have other prices: `Prices(...)` takes any of them, so a user types their own.

Units follow AWS's rules: a write unit is one write of up to 1 KB, a read unit one strongly
consistent read of up to 4 KB (eventually consistent reads cost half, transactional ones twice);
GSIs bill their own writes and storage at the same prices.

>>> p = Prices()
>>> round(p.on_demand_monthly(write_units_per_second=100, read_units_per_second=0), 2)
164.25
>>> round(p.provisioned_monthly(write_capacity_units=100, read_capacity_units=0), 2)
47.45
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["HOURS_PER_MONTH", "SOURCES", "Prices"]

# AWS bills a month as 730 hours on its pricing pages and in its calculator.
HOURS_PER_MONTH = 730.0
SECONDS_PER_MONTH = HOURS_PER_MONTH * 3600

ON_DEMAND = "https://aws.amazon.com/dynamodb/pricing/on-demand/"
PROVISIONED = "https://aws.amazon.com/dynamodb/pricing/provisioned/"
PRICE_CUT = (
    "https://aws.amazon.com/about-aws/whats-new/2024/11/amazon-dynamodb-reduces-prices-on-demand-"
    "throughput-global-tables/"
)

# field -> (source, what it says)
SOURCES: dict[str, tuple[str, str]] = {
    "write_request_unit": (ON_DEMAND, "$0.625 per million write request units (us-east-1, since 2024-11-01)"),
    "read_request_unit": (ON_DEMAND, "$0.125 per million read request units (us-east-1, since 2024-11-01)"),
    "write_capacity_unit_hour": (PROVISIONED, "$0.00065 per WCU-hour (us-east-1)"),
    "read_capacity_unit_hour": (PROVISIONED, "$0.00013 per RCU-hour (us-east-1)"),
    "storage_gb_month": (ON_DEMAND, "$0.25 per GB-month after the first 25 GB (Standard table class)"),
    "free_storage_gb": (ON_DEMAND, "the first 25 GB stored per month are free"),
    "effective": (PRICE_CUT, "on-demand throughput prices cut by 50% from 2024-11-01"),
}


@dataclass(frozen=True, slots=True)
class Prices:
    """DynamoDB list prices in USD; the defaults are us-east-1's (see SOURCES).

    >>> Prices().storage_monthly(125)
    25.0
    """

    write_request_unit: float = 0.625 / 1e6
    read_request_unit: float = 0.125 / 1e6
    write_capacity_unit_hour: float = 0.00065
    read_capacity_unit_hour: float = 0.00013
    storage_gb_month: float = 0.25
    free_storage_gb: float = 25.0
    region: str = "us-east-1"
    as_of: str = "2024-11-01"

    def __post_init__(self) -> None:
        for name in SOURCES.keys() - {"effective"}:
            if getattr(self, name) < 0:
                raise ValueError(f"price {name} must not be negative, not {getattr(self, name)}")

    def on_demand_monthly(self, *, write_units_per_second: float, read_units_per_second: float) -> float:
        """A month of on-demand throughput at a steady rate of request units a second."""
        return SECONDS_PER_MONTH * (
            write_units_per_second * self.write_request_unit + read_units_per_second * self.read_request_unit
        )

    def provisioned_monthly(self, *, write_capacity_units: float, read_capacity_units: float) -> float:
        """A month of provisioned capacity held at these units (billed whether used or not)."""
        hourly = write_capacity_units * self.write_capacity_unit_hour
        hourly += read_capacity_units * self.read_capacity_unit_hour
        return HOURS_PER_MONTH * hourly

    def storage_monthly(self, gigabytes: float, *, free_tier: bool = True) -> float:
        """A month of storage for `gigabytes` (table and GSIs together), less the free 25 GB if asked."""
        billed = max(0.0, gigabytes - (self.free_storage_gb if free_tier else 0.0))
        return billed * self.storage_gb_month
