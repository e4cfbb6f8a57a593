"""Run a workload: simulate it, collect what happened, and say why (its verdict).

>>> from tatami.capacity.workloads.builders import Setting, keys_workload
>>> report = simulate(keys_workload("one key", [("k", n) for n in range(3000)], Setting()))
>>> report.verdict.kinds
['hot key']
"""

from __future__ import annotations

from tatami.capacity.model.engine import Simulation, no_cycle_collection
from tatami.capacity.reports.diagnoses import diagnose
from tatami.capacity.reports.report import Report, collect
from tatami.capacity.workloads.builders import Workload

__all__ = ["simulate"]


def simulate(workload: Workload, max_seconds: float = 86_400, scale: float | None = None) -> Report:
    """Run `workload` to its end (or `max_seconds`); the report, verdict included.

    `scale`: the workload replays recorded traffic that many times over (the verdict says so).
    """
    simulation = Simulation(workload.spaces, max_seconds=max_seconds)
    with no_cycle_collection():
        simulation.run(workload.client)
    report = collect(workload, simulation)
    report.scale = scale
    report.verdict = diagnose(report)
    return report
