"""The IP loader's own plan through the model: how long the load takes, and which key strategy wins.

`tatami load-ip --dry-run` states it. The items are exactly the plan's pieces (their partition and sort
keys from `tatami_functions.ip_lookup.keys`, their sizes from the items the loader would write); the
loader is the real one's shape: `workers` batch writers of 25. The strategies are seed 003's: every item
under one partition key, the prefix keys in file order, and the prefix keys shuffled (what
`tatami load-ip` does).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tatami.capacity.model.items import item_size
from tatami.capacity.reports.report import Report, simulate
from tatami.capacity.workloads.builders import FILE_ORDER, SHUFFLED, Setting, keys_workload
from tatami.ip_loader.plan import Plan
from tatami_functions.ip_lookup.keys import partition_key

__all__ = ["STRATEGIES", "Strategy", "plan_load_times", "summary"]

VERSION = 1  # any version: it changes the key text, not how keys spread


@dataclass(frozen=True)
class Strategy:
    name: str
    one_key: bool
    order: str


STRATEGIES = (
    Strategy("one partition key", True, FILE_ORDER),
    Strategy("prefix keys, file order", False, FILE_ORDER),
    Strategy("prefix keys, shuffled (what load-ip does)", False, SHUFFLED),
)


def plan_load_times(
    plan: Plan, workers: int, setting: Setting | None = None
) -> list[tuple[Strategy, Report]]:
    """Each strategy's simulated load of the plan's items into a new on-demand table."""
    setting = setting or Setting()
    sizes = [item_size(piece.item(VERSION)) for piece in plan.pieces]
    keys = [(partition_key(VERSION, piece.prefix), piece.first) for piece in plan.pieces]
    single = [("one", sort_key) for _, sort_key in keys]
    results = []
    for strategy in STRATEGIES:
        chosen = single if strategy.one_key else keys
        workload = keys_workload(strategy.name, chosen, setting, sizes, strategy.order, workers)
        results.append((strategy, simulate(workload)))
    return results


def summary(results: Sequence[tuple[Strategy, Report]], capacity: str) -> str:
    """One line per strategy (simulated seconds and writes/s) and the best one."""
    lines = [f"simulated load into a new {capacity} table (tatami capacity model, no AWS call):"]
    best = min(results, key=lambda result: (result[1].duration, -STRATEGIES.index(result[0])))
    for strategy, report in results:
        rate = report.totals()[4] / max(report.duration, 0.05)
        mark = "   <- best" if strategy is best[0] else ""
        lines.append(f"  {strategy.name:44} {report.duration:>9,.1f} s  {rate:>8,.0f} writes/s{mark}")
    lines.append(f"  {best[1].verdict}")
    return "\n".join(lines)
