"""Every figure as a range: a workload run at several hash seeds and at each reading of the open choices.

Where keys land depends on AWS's hash (not public), and three behaviours are documented only in
words (`model.choices`). One run fixes all of them, so its figures are points where the truth is
a range. `sweep` runs the workload at the middle reading with several hash seeds, and at the
pessimistic and optimistic readings with the first seed; each figure is then the median of the
middle runs and the lowest and highest of all runs.

>>> ranges = sweep(lambda setting: keys_workload("t", keys, setting), Setting(), seeds=3)  # doctest: +SKIP
>>> str(ranges.span(lambda report: report.throughput))  # doctest: +SKIP
'3,317 (2,711-3,572)'
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
import statistics
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tatami.capacity.model.choices import CORNERS
from tatami.capacity.model.engine import no_cycle_collection
from tatami.capacity.reports.report import Report
from tatami.capacity.reports.run import simulate
from tatami.capacity.reports.verdict import Verdict, percent
from tatami.capacity.workloads.builders import Setting, Workload

__all__ = ["ASSUMPTIONS", "Ranges", "Span", "sweep"]

MIDDLE = "middle"
PARALLEL_FROM = 200_000  # requests in a run from which the other runs go to other processes, a CPU each
_JOB: tuple[Any, ...] = ()  # what forked runs run: set just before forking, inherited by the children
ASSUMPTIONS = ("range", *CORNERS)  # "range": every corner; or one corner only


@dataclass(frozen=True)
class Span:
    """A figure: the median of the middle runs, and the lowest and highest of all runs."""

    middle: float
    low: float
    high: float

    def format(self, spec: str = ",.0f", unit: str = "") -> str:
        """`3,317 (2,711-3,572)`; one value when every run agrees."""
        text = f"{format(self.middle, spec)}{unit}"
        if format(self.low, spec) == format(self.high, spec):
            return text
        return f"{text} ({format(self.low, spec)}-{format(self.high, spec)}{unit})"

    def __str__(self) -> str:
        return self.format()

    def within(self, target: float, tolerance: float) -> bool:
        return abs(self.middle / target - 1) <= tolerance


@dataclass
class Ranges:
    """The runs of one workload: (corner, seed, report), the middle reading's first seed first."""

    runs: list[tuple[str, int, Report]]

    @property
    def main(self) -> Report:
        """The run a terminal shows in detail: the middle reading (or the only one), first seed."""
        return self.runs[0][2]

    def span(self, figure: Callable[[Report], float]) -> Span:
        figures = [(corner, figure(report)) for corner, _, report in self.runs]
        middle = [value for corner, value in figures if corner == self.runs[0][0]]
        values = [value for _, value in figures]
        return Span(statistics.median(middle), min(values), max(values))

    def kinds(self) -> Counter[str]:
        """How many runs name each diagnosis."""
        return Counter(kind for _, _, report in self.runs for kind in dict.fromkeys(_verdict(report).kinds))

    def describe(self) -> str:
        """The figures as ranges, what the runs were, and how many runs name each diagnosis."""
        errors = self.span(lambda r: r.stats.errors)
        lines = [f"over {len(self.runs)} runs ({self.assumptions()}):"]
        lines += [
            f"  {'throughput':20} {self.span(lambda r: r.throughput).format(unit='/s')}",
            f"  {'time':20} {self.span(lambda r: r.duration).format(',.1f', ' s')}",
            f"  {'attempts throttled':20} {self._share()}",
            f"  {'errors returned':20} {errors} (the SDK gave up, or did not retry)",
            *self._seen(),
            f"  {'partitions at end':20} {self.span(lambda r: _partitions(r))}",
            f"  {'heat splits':20} {self.span(lambda r: _heat_splits(r))}",
        ]
        kinds = self.kinds()
        named = ", ".join(f"{kind} {count}/{len(self.runs)}" for kind, count in kinds.most_common())
        lines.append(f"  {'verdicts':20} {named or 'nothing to name'}")
        return "\n".join(lines)

    def _share(self, figure: Callable[[Report], float] = lambda report: report.throttled_share) -> str:
        span = self.span(figure)
        if span.low == span.high:
            return percent(span.middle)
        return f"{percent(span.middle)} ({percent(span.low)}-{percent(span.high)})"

    def _seen(self) -> list[str]:
        """What callers saw (open loop) and what the workload costs, as ranges."""
        lines = []
        if self.main.outcomes:
            lines.append(f"  {'requests failed':20} {self._share(lambda r: r.failed_share)}")
            added = self.span(lambda r: r.added_latency * 1000)
            lines.append(f"  {'added latency':20} {added.format(',.0f', ' ms')} mean")
        on_demand = self.span(lambda r: r.cost.on_demand).format(",.0f")
        provisioned = self.span(lambda r: r.cost.provisioned).format(",.0f")
        lines.append(f"  {'cost a month':20} on-demand ${on_demand}, provisioned ${provisioned}")
        return lines

    def assumptions(self) -> str:
        seeds = sorted({seed for corner, seed, _ in self.runs if corner == self.runs[0][0]})
        corners = [corner for corner in CORNERS if any(run[0] == corner for run in self.runs)]
        seed_text = f"hash seed{'s' if len(seeds) > 1 else ''} {', '.join(map(str, seeds))}"
        if corners == [self.runs[0][0]]:
            return f"{corners[0]} reading ({CORNERS[corners[0]].describe()}), {seed_text}"
        others = "; ".join(
            f"{corner}: {CORNERS[corner].describe()}" for corner in corners if corner != MIDDLE
        )
        return f"middle reading ({CORNERS[MIDDLE].describe()}) at {seed_text}; {others}, at seed {seeds[0]}"


def sweep(
    build: Callable[[Setting], Workload],
    setting: Setting,
    seeds: int = 3,
    assume: str = "range",
    max_seconds: float = 86_400,
    scale: float | None = None,
) -> Ranges:
    """Run the workload `build` makes at each reading `assume` names and `seeds` hash seeds."""
    if assume not in ASSUMPTIONS:
        raise ValueError(f"assume {assume!r} must be one of {', '.join(ASSUMPTIONS)}")
    if seeds < 1:
        raise ValueError(f"seeds {seeds} must be at least 1")
    first = setting.seed
    plan: Sequence[tuple[str, int]] = (
        [(MIDDLE, first + n) for n in range(seeds)]
        + [(corner, first) for corner in CORNERS if corner != MIDDLE]
        if assume == "range"
        else [(assume, first + n) for n in range(seeds)]
    )
    runs = [_run(build, setting, plan[0], max_seconds, scale)]
    rest = plan[1:]
    if rest and runs[0][2].items >= PARALLEL_FROM and _processors() > 1:
        runs += _forked(build, setting, rest, max_seconds, scale)
    else:
        runs += [_run(build, setting, entry, max_seconds, scale) for entry in rest]
    return Ranges(runs)


def _run(
    build: Callable[[Setting], Workload],
    setting: Setting,
    entry: tuple[str, int],
    max_seconds: float,
    scale: float | None,
) -> tuple[str, int, Report]:
    corner, seed = entry
    chosen = dataclasses.replace(setting, seed=seed, choices=CORNERS[corner])
    with no_cycle_collection():  # building a large workload makes millions of objects too
        workload = build(chosen)
    return corner, seed, simulate(workload, max_seconds, scale)


def _forked(
    build: Callable[[Setting], Workload],
    setting: Setting,
    plan: Sequence[tuple[str, int]],
    max_seconds: float,
    scale: float | None,
) -> list[tuple[str, int, Report]]:
    """The runs in forked processes, a CPU each: a large workload's runs take seconds each, and each is
    its own (its seed, its reading), so they give the same reports sooner. The children inherit what
    to run (`_JOB`: a workload's builder is a closure, which cannot be sent to them)."""
    global _JOB
    _JOB = (build, setting, max_seconds, scale)
    try:
        with multiprocessing.get_context("fork").Pool(min(len(plan), _processors())) as pool:
            return pool.map(_run_job, plan)
    finally:
        _JOB = ()


def _run_job(entry: tuple[str, int]) -> tuple[str, int, Report]:
    build, setting, max_seconds, scale = _JOB
    return _run(build, setting, entry, max_seconds, scale)


def _processors() -> int:
    """CPUs this process may use: 1 where it cannot fork safely (no fork, or other threads, which a fork
    would copy mid-step: the console's server calls this too)."""
    if "fork" not in multiprocessing.get_all_start_methods() or threading.active_count() > 1:
        return 1
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _verdict(report: Report) -> Verdict:
    assert report.verdict is not None  # simulate always gives one
    return report.verdict


def _partitions(report: Report) -> float:
    return float(sum(report.spaces[name].partitions[1] for name in report.tables))


def _heat_splits(report: Report) -> float:
    return float(sum(1 for name in report.tables for split in report.splits[name] if split.reason == "heat"))
