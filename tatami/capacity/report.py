"""Run a workload and say what happened: per second and per partition, and a one-line verdict.

>>> report = simulate(keys_workload("t", keys, Setting()))  # doctest: +SKIP
>>> report.verdict  # doctest: +SKIP
'throttles: key 192 takes 41% of writes on 1 partition (P2 throttled 98 s); 360,000 writes in 263 s'
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from tatami.capacity.engine import Simulation
from tatami.capacity.space import ACC_R, ACC_W, THR_R, THR_W, KeySpace, Split
from tatami.capacity.verdict import verdict
from tatami.capacity.workloads import Workload

__all__ = ["PartitionLine", "Report", "simulate"]


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
    series: dict[str, list[tuple[float, ...]]]  # space -> per second: see KeySpace.totals
    partitions: list[PartitionLine]
    splits: dict[str, list[Split]]
    hottest: tuple[str, float]  # the hottest key of the table and its share of all units offered
    duration: float = 0.0  # when the client finished (to the tick)
    verdict: str = ""

    def rate(self, column: int = ACC_W) -> list[float]:
        """One column per second, summed over every key space."""
        rows = list(self.series.values())
        return [sum(space[second][column] for space in rows) for second in range(self.seconds)]

    def totals(self) -> tuple[float, ...]:
        """Every column summed over the run and every key space."""
        return tuple(sum(row[i] for rows in self.series.values() for row in rows) for i in range(7))


def simulate(workload: Workload, max_seconds: float = 86_400) -> Report:
    """Run `workload` to its end; the report, verdict included."""
    simulation = Simulation(workload.spaces, max_seconds=max_seconds)
    simulation.run(workload.client)
    seconds = simulation.seconds
    series = {space.name: _series(space, seconds) for space in workload.spaces}
    lines = [line for space in workload.spaces for line in _lines(space, workload)]
    table = workload.spaces[0].name
    offered = {h: units for (name, h), units in workload.offered.items() if name == table}
    total = sum(offered.values()) or 1.0
    hot_hash, hot_units = max(offered.items(), key=lambda item: item[1], default=(0, 0.0))
    report = Report(
        workload.name,
        workload.spaces[0].capacity.describe(),
        seconds,
        series,
        lines,
        {space.name: list(space.splits) for space in workload.spaces},
        (workload.label(table, hot_hash), hot_units / total),
        simulation.elapsed,
    )
    report.verdict = verdict(report)
    return report


def _series(space: KeySpace, seconds: int) -> list[tuple[float, ...]]:
    empty = (0.0,) * 7
    return [space.totals.get(second, empty) for second in range(seconds)]


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
