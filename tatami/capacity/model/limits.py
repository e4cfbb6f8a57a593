"""DynamoDB's capacity rules as named constants, each with the public source it comes from.

Every figure the model produces follows from these values and the workload; none is fitted to a
measurement. `Limits()` holds AWS's documented values; `Limits.overridden(["name=value", ...])`
changes any of them (the CLI's `--limit`). Where AWS documents a behaviour but publishes no number
(what "near its limit" means), the constant says so; where the documents leave a behaviour open
(the delay before a split for heat, per-second or token-bucket accounting, how fast on-demand
grows), `tatami.capacity.model.choices` names the readings and a range runs them all.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["SOURCES", "Limits"]

GB = 1024**3

DOCS = "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/"
KEY_DESIGN = DOCS + "bp-partition-key-design.html"
PREWARM = DOCS + "pre-warming-on-demand-capacity-mode.html"
BURST = DOCS + "burst-adaptive-capacity.html"
PART_3 = (
    "https://aws.amazon.com/blogs/database/part-3-scaling-dynamodb-how-partitions-hot-keys-"
    "and-split-for-heat-impact-performance/"
)
PAPER = "https://www.usenix.org/conference/atc22/presentation/elhemali (section 4)"
QUOTAS = DOCS + "ServiceQuotas.html#default-limits-throughput"
LSI = DOCS + "LSI.html#LSI.ItemCollections.SizeLimit"

# name -> (source, what it says). `tatami capacity limits` prints them beside the values.
SOURCES: dict[str, tuple[str, str]] = {
    "partition_write_units": (KEY_DESIGN, "every partition delivers at most 1,000 write units per second"),
    "partition_read_units": (KEY_DESIGN, "... and 3,000 read units per second (or a linear combination)"),
    "window_seconds": (
        PART_3,
        "a request is throttled when 'it accesses a partition that has reached its limits during "
        "that second': a partition's allowance is one second of its rate",
    ),
    "partition_bytes": (PART_3, "a table adds partitions when 'a partition gets close to 10 GB in size'"),
    "write_unit_bytes": (KEY_DESIGN, "one write unit: one write per second of an item up to 1 KB"),
    "read_unit_bytes": (KEY_DESIGN, "one read unit: one strongly consistent read of up to 4 KB"),
    "on_demand_write_units": (PREWARM, "new on-demand tables sustain up to 4,000 writes per second"),
    "on_demand_read_units": (PREWARM, "... and 12,000 reads per second"),
    "on_demand_peak_factor": (PREWARM, "not throttled unless it exceeds twice its previous peak ..."),
    "on_demand_peak_seconds": (PREWARM, "... 'within the same 30 minutes'"),
    "burst_seconds": (BURST, "DynamoDB retains up to five minutes (300 seconds) of unused capacity"),
    "table_write_quota": (
        QUOTAS,
        "per table (and per GSI): 40,000 write request units (on-demand) or WCU (provisioned) a "
        "second by default; adjustable through Service Quotas",
    ),
    "table_read_quota": (QUOTAS, "... and 40,000 read request units or RCU a second"),
    "item_collection_bytes": (
        LSI,
        "a table with a local secondary index keeps each item collection in one partition, "
        "at most 10 GB (ItemCollectionSizeLimitExceededException past it)",
    ),
    "heat_utilization": (
        PART_3,
        "a partition splits when it 'receives read or write traffic near its throughput capacity "
        "limit'; AWS gives no number, so near = 80%",
    ),
    "heat_split_max_share": (
        PAPER,
        "a partition 'receiving high traffic to a single item' or whose 'key range is accessed "
        "sequentially' is not split; a split that would leave more than 90% of recent traffic on "
        "one side counts as such (no AWS number)",
    ),
}


@dataclass(frozen=True, slots=True)
class Limits:
    """The constants of the partition model; see SOURCES for where each value comes from.

    >>> Limits().partition_write_units, Limits.overridden(["partition_write_units=500"]).partition_write_units
    (1000.0, 500.0)
    """

    partition_write_units: float = 1000.0
    partition_read_units: float = 3000.0
    window_seconds: float = 1.0
    partition_bytes: float = 10 * GB
    write_unit_bytes: int = 1024
    read_unit_bytes: int = 4096
    on_demand_write_units: float = 4000.0
    on_demand_read_units: float = 12000.0
    on_demand_peak_factor: float = 2.0
    on_demand_peak_seconds: float = 1800.0
    burst_seconds: float = 300.0
    table_write_quota: float = 40_000.0
    table_read_quota: float = 40_000.0
    item_collection_bytes: float = 10 * GB
    heat_utilization: float = 0.8
    heat_split_max_share: float = 0.9

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            if getattr(self, field.name) <= 0:
                raise ValueError(f"limit {field.name} must be positive, not {getattr(self, field.name)}")
        if not 0.5 <= self.heat_split_max_share <= 1:
            raise ValueError(f"limit heat_split_max_share {self.heat_split_max_share} must be in [0.5, 1]")

    @property
    def read_cost(self) -> float:
        """A read unit in write units of a partition's allowance (the documented linear combination)."""
        return self.partition_write_units / self.partition_read_units

    @classmethod
    def overridden(cls, assignments: Iterable[str]) -> Limits:
        """Limits with `name=value` assignments applied; ValueError names a bad one and the choices."""
        known = {field.name: field.type for field in dataclasses.fields(cls)}
        changes: dict[str, float | int] = {}
        for assignment in assignments:
            name, sep, text = assignment.partition("=")
            name = name.strip().replace("-", "_")
            if not sep or name not in known:
                raise ValueError(f"{assignment!r}: expected NAME=VALUE with NAME one of {', '.join(known)}")
            try:
                changes[name] = int(text) if known[name] == "int" else float(text)
            except ValueError:
                raise ValueError(f"{assignment!r}: {text.strip()!r} is not a number") from None
        return dataclasses.replace(cls(), **changes)  # type: ignore[arg-type]
