"""What a verdict and a table need to know of each key space and partition of a finished run.

`SpaceFacts` describes one table or index (its setting, partitions, the seconds partitions
throttled or ran hot, with whom they served); `PartitionLine` one partition's totals and series.
Both are read off the simulation's key spaces once a run ends (`space_facts`, `partition_lines`).
"""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from dataclasses import dataclass, field

from tatami.capacity.model.capacity import ON_DEMAND, Capacity
from tatami.capacity.model.limits import Limits
from tatami.capacity.model.partition import Top
from tatami.capacity.model.space import ACC_R, ACC_W, THR_R, THR_W, KeySpace
from tatami.capacity.workloads.setting import Workload

__all__ = ["KeyTop", "PartitionLine", "SpaceFacts", "partition_lines", "space_facts"]


@dataclass(frozen=True)
class KeyTop:
    """A partition's `Top` second with its keys' labels."""

    partition: str
    top: Top
    key: str
    runner_up: str


@dataclass(frozen=True)
class SpaceFacts:
    """What a verdict needs to know of one table or index besides its counts."""

    name: str
    capacity: str  # the setting in words, with its partitions
    provisioned: bool
    lsi: bool
    index: bool  # a global secondary index (else a table)
    partitions: tuple[int, int]  # at the start, at the end
    write_rate: float  # the table-level write allowance at the end (on-demand: after growth; quota-capped)
    quota: float  # the per-table write quota
    partition_units: float  # what a partition serves a second, in write units
    partition_read_units: float  # ... in read units
    tops: list[KeyTop] = field(default_factory=list)  # seconds partitions throttled or ran hot
    refused: dict[str, int] = field(default_factory=dict)  # key -> writes refused (item collection full)
    setting: Capacity = field(default_factory=Capacity.on_demand)  # its capacity setting
    limits: Limits = field(default_factory=Limits)
    secondary: bool = False  # its requests are counted with another space's (an index, a transaction's table)
    split_seconds: tuple[int, ...] = ()  # the second of each split, in order
    shares: dict[str, float] = field(default_factory=dict)  # the busiest keys' shares of the units offered

    def partitions_at(self, second: int) -> int:
        """Partitions it had during `second` (those that split before it included)."""
        return self.partitions[0] + bisect_left(self.split_seconds, second)


def space_facts(space: KeySpace, workload: Workload) -> SpaceFacts:
    tops = [
        KeyTop(
            f"{space.name}/P{part.pid}",
            top,
            workload.label(space.name, top.key),
            workload.label(space.name, top.runner_up),
        )
        for part in space.partitions
        for top in part.tops
    ]
    tops.sort(key=lambda entry: entry.top.second)
    refused = {workload.label(space.name, key): count for key, count in space.refused_keys.items()}
    return SpaceFacts(
        space.name,
        space.capacity.describe(space.limits),
        space.capacity.mode != ON_DEMAND,
        space.lsi,
        space.index,
        (space.capacity.partitions(space.limits), len(space.partitions)),
        min(space.table.write_rate, space.limits.table_write_quota),
        space.limits.table_write_quota,
        space.limits.partition_write_units,
        space.limits.partition_read_units,
        tops,
        refused,
        space.capacity,
        space.limits,
        space.secondary,
        tuple(split.second for split in space.splits),
        _shares(space, workload),
    )


def _shares(space: KeySpace, workload: Workload, top: int = 64) -> dict[str, float]:
    """The `top` keys by units offered to the space, with their shares of all its units."""
    mine = [(units, hashed) for (name, hashed), units in workload.offered.items() if name == space.name]
    total = sum(units for units, _ in mine) or 1.0
    return {
        workload.label(space.name, hashed): units / total
        for units, hashed in sorted(mine, reverse=True)[:top]
    }


@dataclass(frozen=True)
class PartitionLine:
    space: str
    pid: int
    parent: int  # -1 for the table's first partitions
    born: float
    keys: int  # distinct partition keys offered to it
    top_key: str
    top_share: float  # the hottest key's share of the units offered to this partition
    top_table_share: float  # ... and of the units offered to the whole table or index
    accepted: float  # write + read units accepted
    throttled: float
    peak: float  # the largest share of its per-second allowance it used (1.0: all of it)
    throttled_seconds: int
    series: dict[int, tuple[float, ...]]  # second -> units accepted/throttled (W, R), requests too

    @property
    def name(self) -> str:
        return f"{self.space}/P{self.pid}"


def partition_lines(space: KeySpace, workload: Workload) -> list[PartitionLine]:
    per_partition: dict[int, dict[int, float]] = defaultdict(lambda: defaultdict(float))
    for (name, hashed), units in workload.offered.items():
        if name == space.name:
            per_partition[space.locate(hashed, b"").pid][hashed] += units
    space_total = sum(sum(keys.values()) for keys in per_partition.values()) or 1.0
    allowance = space.limits.partition_write_units * space.window
    lines = []
    for part in space.partitions:
        keys = per_partition[part.pid]
        top, top_units = max(keys.items(), key=lambda item: item[1], default=(0, 0.0))
        rows = part.series.values()
        lines.append(
            PartitionLine(
                space.name,
                part.pid,
                part.parent,
                part.born,
                len(keys),
                workload.label(space.name, top) if keys else "-",
                top_units / (sum(keys.values()) or 1.0),
                top_units / space_total,
                sum(row[ACC_W] + row[ACC_R] for row in rows),
                sum(row[THR_W] + row[THR_R] for row in rows),
                max((row[ACC_W] + row[ACC_R] * space.read_cost for row in rows), default=0.0) / allowance,
                sum(1 for row in rows if row[THR_W] or row[THR_R]),
                dict(part.series),
            )
        )
    return lines
