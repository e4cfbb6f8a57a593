"""The IP loader's own plan through the model: how long the load takes, and which key strategy wins.

`tatami load-ip --dry-run` states it. The items are exactly the plan's pieces (their partition and sort
keys from `tatami_functions.ip_lookup.keys`, their sizes from the items the loader would write); the
client is the real loader's: `workers` threads sharing one boto3 client with the retry mode and
attempts of `tatami.clients.BULK_CALLS`, each writing batches of 25 and resending unprocessed
items after the backoff of `tatami.ip_loader.store.Backoff`. The strategies are seed 003's: every
item under one partition key, the prefix keys in file order, and the prefix keys shuffled (what
`tatami load-ip` does). Each runs at several hash seeds and readings of what AWS leaves open.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, replace

from tatami.capacity.model.items import item_size
from tatami.capacity.reports.ranges import Ranges, sweep
from tatami.capacity.reports.verdict import percent
from tatami.capacity.workloads.builders import FILE_ORDER, SHUFFLED, Key, Setting, Workload, keys_workload
from tatami.capacity.workloads.clients import AppRetry
from tatami.capacity.workloads.sdk import ClientConfig
from tatami.clients import BULK_CALLS
from tatami.ip_loader.plan import Plan
from tatami.ip_loader.store import Backoff
from tatami_functions.ip_lookup.keys import partition_key

__all__ = ["LOADER_CLIENT", "STRATEGIES", "Strategy", "plan_load_times", "summary"]

VERSION = 1  # any version: it changes the key text, not how keys spread


def _loader_client() -> ClientConfig:
    """The SDK configuration `tatami load-ip` builds its client with (its `max_attempts` counts retries)."""
    retries = BULK_CALLS.config.retries or {}
    total = retries.get("total_max_attempts") or retries.get("max_attempts", 2) + 1
    return ClientConfig(retries.get("mode", "standard"), total)


LOADER_CLIENT = _loader_client()
_BACKOFF = Backoff()
LOADER_RETRY = AppRetry(refill=False, base=_BACKOFF.base, cap=_BACKOFF.cap, attempts=_BACKOFF.attempts)


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
    plan: Plan, workers: int, setting: Setting | None = None, seeds: int = 3
) -> list[tuple[Strategy, Ranges]]:
    """Each strategy's simulated load of the plan's items into a new on-demand table, as ranges."""
    setting = setting or Setting()
    setting = replace(setting, client=replace(LOADER_CLIENT, latency=setting.client.latency))
    sizes = [item_size(piece.item(VERSION)) for piece in plan.pieces]
    keys: list[Key] = [(partition_key(VERSION, piece.prefix), piece.first) for piece in plan.pieces]
    single: list[Key] = [("one", sort_key) for _, sort_key in keys]
    results = []
    for strategy in STRATEGIES:
        build = functools.partial(_workload, strategy, single if strategy.one_key else keys, sizes, workers)
        results.append((strategy, sweep(build, setting, 1 if strategy.one_key else seeds)))
    return results


def _workload(
    strategy: Strategy, keys: list[Key], sizes: list[int], workers: int, setting: Setting
) -> Workload:
    return keys_workload(strategy.name, keys, setting, sizes, strategy.order, workers, LOADER_RETRY)


def summary(results: Sequence[tuple[Strategy, Ranges]], capacity: str) -> str:
    """One line per strategy (simulated seconds, writes/s, throttled attempts: ranges), the best one."""
    first = results[0][1]
    lines = [
        f"simulated load into a new {capacity} table (tatami capacity model, no AWS call):",
        f"  client: {first.main.client}; {first.assumptions()}",
    ]
    best = min(results, key=lambda result: (_seconds(result[1]), -STRATEGIES.index(result[0])))
    for strategy, ranges in results:
        seconds = ranges.span(lambda report: report.duration).format(",.1f", " s")
        rate = ranges.span(lambda report: report.throughput).format(unit="/s")
        throttled = percent(ranges.span(lambda report: report.throttled_share).middle)
        mark = "   <- best" if strategy is best[0] else ""
        lines.append(f"  {strategy.name:44} {seconds:>22}  {rate:>22} writes  {throttled:>6} throttled{mark}")
    lines.append(f"  {best[1].main.verdict}")
    return "\n".join(lines)


def _seconds(ranges: Ranges) -> float:
    return ranges.span(lambda report: report.duration).middle
