"""Hot keys of the local cloud's recorded traffic, and what its replay at scale would throttle.

>>> found = analyse(records, schemas, Setting(), scale=50)  # doctest: +SKIP
>>> print(describe(found, top=5))  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tatami.capacity.adapters.accesses import Access, Schema, accesses
from tatami.capacity.adapters.traffic import KeyStats, key_stats, replay
from tatami.capacity.reports.ranges import Ranges, sweep
from tatami.capacity.reports.render import render_ranges
from tatami.capacity.reports.report import Report
from tatami.capacity.reports.verdict import Verdict
from tatami.capacity.workloads.builders import Setting

__all__ = ["Insights", "analyse", "describe", "flagged_keys"]


@dataclass
class Insights:
    calls: int
    sources: list[str]
    seconds: float  # from the first recorded call to the last
    stats: dict[str, list[KeyStats]]  # table or index -> keys, most units first
    ranges: Ranges  # the replay at `scale`: its runs (hash seeds, readings of the open choices)
    scale: float

    @property
    def report(self) -> Report:
        """The main run of the replay (the middle reading, the first hash seed)."""
        return self.ranges.main

    @property
    def verdict(self) -> Verdict:
        """The replay's verdict as data, for any caller (`describe` prints it last)."""
        assert self.report.verdict is not None  # simulate always gives one
        return self.report.verdict


def analyse(
    records: list[dict[str, Any]],
    schemas: Mapping[str, Schema],
    setting: Setting,
    scale: float,
    seeds: int = 1,
    assume: str = "middle",
) -> Insights:
    """Rank the recorded keys and replay the traffic `scale` times over through the model.

    The replay runs at `seeds` hash seeds and the readings `assume` names (`reports.ranges`).
    """
    found: list[Access] = list(accesses(records, schemas))
    ranges = sweep(lambda chosen: replay(found, chosen, scale), setting, seeds, assume, scale=scale)
    span = records[-1]["t"] - records[0]["t"] if records else 0.0
    sources = sorted({record.get("src", "?") for record in records})
    return Insights(len(records), sources, span, key_stats(found), ranges, scale)


def flagged_keys(insights: Insights) -> dict[tuple[str, str], str]:
    """(table or index, key) -> why it is flagged: a diagnosis of the replay names it."""
    verdict, flags = insights.verdict, {}
    for diagnosis in verdict.diagnoses:
        what = "throttles" if verdict.throttled else "near its limit"
        for key in diagnosis.keys:
            flags[diagnosis.space, key] = f"HOT: {what} at {insights.scale:g}x ({diagnosis.kind})"
    return flags


def describe(insights: Insights, top: int = 5, tables: int = 12) -> str:
    """The hottest keys per table or index, then the replay's table, sparklines and verdict."""
    lines = [
        f"{insights.calls:,} calls over {insights.seconds / 60:,.1f} min from {_sources(insights.sources)}",
        f"hottest keys (units used; peak: busiest second; flags: the replay at {insights.scale:g}x):",
    ]
    flags = flagged_keys(insights)
    ranked = sorted(insights.stats.items(), key=lambda item: -sum(entry.units for entry in item[1]))
    for space, entries in ranked[:tables]:
        total = sum(entry.units for entry in entries) or 1.0
        lines.append(f"{space}  ({len(entries):,} keys, {total:,.1f} units)")
        lines.append(f"    {'key':32} {'write u':>9} {'read u':>9} {'calls':>7} {'peak/s':>7} {'share':>6}")
        for entry in entries[:top]:
            flag = flags.get((space, entry.key), "")
            lines.append(
                f"    {entry.key[:32]:32} {entry.write_units:>9,.1f} {entry.read_units:>9,.1f} "
                f"{entry.calls:>7,} {entry.peak:>7,.1f} {entry.units / total:>6.0%}  {flag}".rstrip()
            )
    if len(ranked) > tables:
        lines.append(f"... and {len(ranked) - tables} more tables and indexes (--table picks some)")
    lines.append("")
    lines.append(render_ranges(insights.ranges))
    return "\n".join(lines)


def _sources(sources: list[str]) -> str:
    functions = [source for source in sources if not source.startswith("tatami")]
    others = [source for source in sources if source.startswith("tatami")]
    return ", ".join([f"{len(functions)} functions", *others]) if functions else ", ".join(others)
