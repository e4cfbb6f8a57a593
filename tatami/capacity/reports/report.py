"""What a run did, kept as data: per second, per partition, per key space, and what the client saw.

`collect` reads a finished simulation into a `Report`; `run.simulate` runs a workload, collects it
and adds its verdict (`diagnoses`); `render` and `ranges` tell it.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from tatami.capacity.model.engine import Simulation
from tatami.capacity.model.partition import Top
from tatami.capacity.model.space import ACC_R, ACC_REQ, ACC_W, COLUMNS, THR_R, THR_REQ, THR_W, KeySpace, Split
from tatami.capacity.reports.verdict import Verdict
from tatami.capacity.workloads.builders import Sharding, Workload
from tatami.capacity.workloads.clients import CallStats

__all__ = ["KeyTop", "PartitionLine", "Report", "SpaceFacts", "collect"]


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


@dataclass
class Report:
    workload: str
    capacity: str
    seconds: int
    series: dict[str, list[tuple[float, ...]]]  # space -> per second: see model.space's COLUMNS
    partitions: list[PartitionLine]
    splits: dict[str, list[Split]]
    hottest: tuple[str, float]  # the hottest key of the table and its share of all units offered
    duration: float = 0.0  # when the client finished
    items: int = 0  # the requests the workload sends (before retries)
    stats: CallStats = field(default_factory=CallStats)
    spaces: dict[str, SpaceFacts] = field(default_factory=dict)
    sharding: Sharding | None = None
    client: str = ""  # the client in words (retry mode, latency)
    choices: str = ""  # the reading of the open choices it ran under
    scale: float | None = None  # a replay: how many times the recorded traffic
    verdict: Verdict | None = None

    def rate(self, column: int = ACC_W) -> list[float]:
        """One column per second, summed over every key space."""
        rows = list(self.series.values())
        return [sum(space[second][column] for space in rows) for second in range(self.seconds)]

    def totals(self, space: str | None = None) -> tuple[float, ...]:
        """Every column summed over the run, over one key space or all of them."""
        chosen = [self.series[space]] if space else list(self.series.values())
        return tuple(sum(row[i] for rows in chosen for row in rows) for i in range(COLUMNS))

    @property
    def tables(self) -> list[str]:
        """The key spaces that are tables (not indexes): one for a workload, any number in a replay."""
        return [name for name, facts in self.spaces.items() if not facts.index] or list(self.series)[:1]

    def table_totals(self) -> tuple[float, ...]:
        """Every column summed over the run and the tables (an index's requests are its table's too)."""
        rows = [self.totals(name) for name in self.tables]
        return tuple(sum(row[i] for row in rows) for i in range(COLUMNS))

    @property
    def throughput(self) -> float:
        """Plain throughput: requests the tables accepted over the time the client took (items / s)."""
        return self.table_totals()[ACC_REQ] / max(self.duration, 1e-9)

    @property
    def throttled_share(self) -> float:
        """Throttled requests (every attempt) over all attempts, on the tables."""
        totals = self.table_totals()
        attempts = totals[ACC_REQ] + totals[THR_REQ]
        return totals[THR_REQ] / attempts if attempts else 0.0


def collect(workload: Workload, simulation: Simulation) -> Report:
    """The report of `workload` once `simulation` ran it (without its verdict)."""
    seconds = simulation.seconds
    table = workload.spaces[0]
    offered = {h: units for (name, h), units in workload.offered.items() if name == table.name}
    total = sum(offered.values()) or 1.0
    hot_hash, hot_units = max(offered.items(), key=lambda item: item[1], default=(0, 0.0))
    return Report(
        workload.name,
        table.capacity.describe(table.limits),
        seconds,
        {space.name: _series(space, seconds) for space in workload.spaces},
        [line for space in workload.spaces for line in _lines(space, workload)],
        {space.name: list(space.splits) for space in workload.spaces},
        (workload.label(table.name, hot_hash), hot_units / total),
        simulation.elapsed,
        workload.items,
        workload.client.stats,
        {space.name: _facts(space, workload) for space in workload.spaces},
        workload.sharding,
        workload.client.sdk.config.describe(),
        table.choices.describe(),
    )


def _series(space: KeySpace, seconds: int) -> list[tuple[float, ...]]:
    empty = (0.0,) * COLUMNS
    return [space.totals.get(second, empty) for second in range(seconds)]


def _facts(space: KeySpace, workload: Workload) -> SpaceFacts:
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
        space.capacity.mode != "on-demand",
        space.lsi,
        space.index,
        (space.capacity.partitions(space.limits), len(space.partitions)),
        min(space.table.write_rate, space.limits.table_write_quota),
        space.limits.table_write_quota,
        space.limits.partition_write_units,
        space.limits.partition_read_units,
        tops,
        refused,
    )


def _lines(space: KeySpace, workload: Workload) -> list[PartitionLine]:
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
