"""Run a workload and say what happened: per second and per partition, and a one-line verdict (why).

>>> report = simulate(keys_workload("t", keys, Setting()))  # doctest: +SKIP
>>> report.verdict  # doctest: +SKIP
'throttles: key 192 takes 41% of writes on 1 partition (P2 throttled 98 s); 360,000 writes in 263 s'
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from tatami.capacity.model.engine import Simulation
from tatami.capacity.model.space import (
    ACC_R,
    ACC_REQ,
    ACC_W,
    THR_R,
    THR_REQ,
    THR_TABLE,
    THR_W,
    KeySpace,
    Split,
)
from tatami.capacity.workloads.builders import Workload

__all__ = ["PartitionLine", "Report", "simulate", "verdict"]

DOMINANT = 0.5  # a key with at least this share of its partition's traffic is named as the cause
SPREAD = 0.1  # when no key has this share, the partition is simply too busy (not a hot key)


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


def verdict(report: Report, scale: float | None = None) -> str:
    """Whether the run throttled, where, because of which key, and at what pace it went.

    >>> verdict(report)  # doctest: +SKIP
    'throttles: key 0 takes 100% of writes on 1 partition (table/P2 throttled for 360 s, ...); ...'
    """
    prefix = f"at {scale:g}x this traffic, " if scale else ""
    totals = report.totals()
    seconds = report.duration or float(report.seconds)
    pace = (
        f"{totals[ACC_REQ]:,.0f} requests in {seconds:,.1f} s ({totals[ACC_REQ] / max(seconds, 0.05):,.0f}/s)"
    )
    kind = "writes" if totals[ACC_W] + totals[THR_W] >= totals[ACC_R] + totals[THR_R] else "reads"
    throttled = [line for line in report.partitions if line.throttled]
    if not throttled:
        key, share = report.hottest
        peak = max((line.peak for line in report.partitions), default=0.0)
        return (
            f"{prefix}no throttling: {pace}; the busiest partition used {peak:.0%} of its allowance; "
            f"hottest key {key} takes {share:.0%} of {kind}"
        )
    worst = max(throttled, key=lambda line: (line.throttled_seconds, line.throttled))
    offered = totals[ACC_REQ] + totals[THR_REQ]
    causes = [_culprit(worst, kind)]
    if totals[THR_TABLE] >= totals[THR_REQ] / 2:
        causes.insert(0, f"the table-level limit ({report.capacity})")
    share = totals[THR_REQ] / offered if offered else 0.0
    return f"{prefix}throttles: {'; '.join(causes)}; {share:.0%} of requests throttled; {pace}"


def _culprit(line: PartitionLine, kind: str) -> str:
    where = f"{line.name} throttled for {line.throttled_seconds:,} s"
    if line.keys <= 1 or line.top_share >= DOMINANT:
        return f"key {line.top_key} takes {line.top_table_share:.0%} of {kind} on 1 partition ({where})"
    if line.top_share < SPREAD:
        spread = f"{line.keys:,} keys, none above {SPREAD:.0%} of its {kind}"
        return f"{where}: {spread} (the table needs more partitions)"
    return f"{where}: {line.keys:,} keys, the hottest {line.top_key} with {line.top_share:.0%} of its {kind}"
