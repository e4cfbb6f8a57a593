"""What a run did, kept as data: per second, per partition, per key space, and what the client saw.

`collect` reads a finished simulation into a `Report`; `run.simulate` runs a workload, collects it
and adds its verdict (`diagnoses`); `render` and `ranges` tell it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from tatami.capacity.model.engine import Simulation
from tatami.capacity.model.prices import HOURS_PER_MONTH
from tatami.capacity.model.space import ACC_REQ, ACC_W, COLUMNS, THR_REQ, KeySpace, Split
from tatami.capacity.reports.cost import Cost, configured_cost, workload_cost
from tatami.capacity.reports.facts import KeyTop, PartitionLine, SpaceFacts, partition_lines, space_facts
from tatami.capacity.reports.verdict import Verdict
from tatami.capacity.workloads.clients import CallStats
from tatami.capacity.workloads.demand import Demand
from tatami.capacity.workloads.order import LoadShape
from tatami.capacity.workloads.outcomes import Outcome
from tatami.capacity.workloads.setting import Sharding, Workload

__all__ = ["KeyTop", "PartitionLine", "Report", "SpaceFacts", "collect"]


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
    demand: Demand = field(default_factory=Demand)  # what the workload asked, without retries
    outcomes: dict[str, Outcome] = field(default_factory=dict)  # open-loop callers: per operation
    shape: LoadShape | None = None  # a bulk load: the shape of its order
    item_bytes: float = 0.0
    consistent: bool = False
    latency: float = 0.005  # one round trip (s)

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
        """The key spaces whose requests are the workload's own: tables, not indexes or a transaction's
        other tables (one for a workload, any number in a replay)."""
        return [name for name, facts in self.spaces.items() if not facts.secondary] or list(self.series)[:1]

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

    @property
    def cost(self) -> Cost:
        """What the workload would cost a month sustained, in both modes (a bulk load: its storage too)."""
        load = self.shape is not None
        stored = self.items * self.item_bytes if load else 0.0
        settings = {name: facts.setting for name, facts in self.spaces.items()}
        cost = workload_cost(self.demand, stored)
        once = cost.on_demand / (HOURS_PER_MONTH * 3600) * self.demand.seconds if load else None
        return dataclasses.replace(cost, configured=configured_cost(self.demand, settings), once=once)

    @property
    def failed_share(self) -> float:
        """Requests the application saw fail (every operation together; a loader's are resent, so none)."""
        requests = sum(outcome.requests for outcome in self.outcomes.values())
        return sum(outcome.failed for outcome in self.outcomes.values()) / requests if requests else 0.0

    @property
    def added_latency(self) -> float:
        """Mean seconds a request took beyond a round trip (open loop), or a load's time beyond its pace."""
        if self.outcomes:
            merged = Outcome()
            for outcome in self.outcomes.values():
                merged.merge(outcome)
            return merged.added_latency(self.latency)
        ideal = len(self.demand.write.get(self.tables[0], [])) if self.demand.write else 0
        return max(0.0, self.duration - ideal)


def collect(workload: Workload, simulation: Simulation) -> Report:
    """The report of `workload` once `simulation` ran it (without its verdict)."""
    seconds = simulation.seconds
    table = workload.spaces[0]
    offered = {h: units for (name, h), units in workload.offered.items() if name == table.name}
    total = sum(offered.values()) or 1.0
    hot_hash, hot_units = max(offered.items(), key=lambda item: item[1], default=(0, 0.0))
    client = workload.client
    report = Report(
        workload.name,
        table.capacity.describe(table.limits),
        seconds,
        {space.name: _series(space, seconds) for space in workload.spaces},
        [line for space in workload.spaces for line in partition_lines(space, workload)],
        {space.name: list(space.splits) for space in workload.spaces},
        (workload.label(table.name, hot_hash), hot_units / total),
        simulation.elapsed,
        workload.items,
        client.stats,
        {space.name: space_facts(space, workload) for space in workload.spaces},
        workload.sharding,
        client.sdk.config.describe(),
        table.choices.describe(),
    )
    report.demand, report.shape = workload.demand, workload.shape
    report.outcomes = dict(client.outcomes)
    report.item_bytes, report.consistent, report.latency = (
        workload.item_bytes,
        workload.consistent,
        client.sdk.latency,
    )
    return report


def _series(space: KeySpace, seconds: int) -> list[tuple[float, ...]]:
    empty = (0.0,) * COLUMNS
    return [space.totals.get(second, empty) for second in range(seconds)]
