"""Run a workload: simulate it, collect what happened, and say why (its verdict).

>>> from tatami.capacity.workloads.builders import Setting, keys_workload
>>> report = simulate(keys_workload("one key", [("k", n) for n in range(3000)], Setting()))
>>> report.verdict.kinds
['hot key']
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

from tatami.capacity.model.engine import Simulation
from tatami.capacity.reports.diagnoses import diagnose
from tatami.capacity.reports.report import Report, collect
from tatami.capacity.workloads.builders import Workload

__all__ = ["no_cycle_collection", "simulate"]


@contextlib.contextmanager
def no_cycle_collection() -> Iterator[None]:
    """Python's cycle collector paused: a run makes millions of small objects and no cycles worth
    collecting before it ends, and the collector's passes over them cost a fifth of a large run."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


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
