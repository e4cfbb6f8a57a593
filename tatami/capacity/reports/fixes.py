"""Each fix with the number to set, computed from what the load asks (its `Demand`, never its retries),
and what the workload would cost a month with it (`cost`, `model.prices`).

The numbers a practitioner types: WCU/RCU (the load's busiest second), warm throughput (its peak, or
more where partitions would otherwise run at their limit), a GSI's own capacity (the index's own
writes), shards (seed 004's formula on the key's own units), a quota increase, an on-demand
maximum; and the changes that cost nothing to set but change the units: shuffling an ordered
load, eventually consistent reads, smaller items.
"""

from __future__ import annotations

import itertools
import math

from tatami.capacity.model.capacity import ON_DEMAND
from tatami.capacity.model.items import read_units, write_units
from tatami.capacity.model.prices import Prices
from tatami.capacity.reports.cost import AUTO_SCALING_TARGET, workload_cost
from tatami.capacity.reports.facts import SpaceFacts
from tatami.capacity.reports.growth import breach, ramp
from tatami.capacity.reports.report import Report
from tatami.capacity.reports.verdict import Fix, dollars

__all__ = [
    "capacity_fixes",
    "growth_judgement",
    "key_peak",
    "peak",
    "read_fixes",
    "shard_count",
    "shuffle_fix",
    "warm_target",
]


def peak(report: Report, facts: SpaceFacts) -> tuple[float, float]:
    """The busiest second's write and read units the load asks of a key space (no retries)."""
    return report.demand.peak(facts.name)


def key_peak(report: Report, facts: SpaceFacts, key: str) -> tuple[float, float]:
    """A key's busiest second, in write and read units: its share of what the load costs the space's
    partitions, times the space's peak (a key is assumed to take its share of both)."""
    write, read = peak(report, facts)
    share = facts.shares.get(key, 0.0)
    return share * write, share * read


def shard_count(units: float, limit: float) -> int:
    """Keys needed to spread `units` a second under a partition's `limit` (seed 004's formula)."""
    return max(2, math.ceil(units / limit))


def warm_target(units: float, facts: SpaceFacts) -> float:
    """Warm throughput (write units a second) whose partitions run under the heat threshold at `units`.

    A table sized exactly to the load runs its partitions at their limit, and keys hashed at random
    overflow some of them every second: 80% (when DynamoDB calls a partition hot) leaves that room.
    Never past the per-table quota (warm throughput cannot go beyond it).
    """
    limit = facts.partition_units
    return min(math.ceil(units / facts.limits.heat_utilization / limit) * limit, facts.quota)


def capacity_fixes(
    report: Report, facts: SpaceFacts, reads: bool, prices: Prices | None = None
) -> tuple[Fix, ...]:
    """A table or index short of throughput: the capacity to set (provisioned) or to warm (on-demand).

    Each fix is priced for the table or index it changes (its own demand), a month at a time.
    """
    write, read = peak(report, facts)
    what = "the index" if facts.index else "the table"
    mine = workload_cost(report.demand.only(facts.name), prices=prices)
    if facts.setting.mode == ON_DEMAND:
        units = write + read * facts.setting.write_units / facts.setting.read_units
        warm = warm_target(units, facts)
        text = (
            f"warm {what} to {warm:,.0f} write units/s (warm throughput; the load asks up to {units:,.0f}/s)"
        )
        return (Fix(text, "warm throughput", warm, mine.on_demand), _maximum(write, read, what, prices))
    wcu, rcu = math.ceil(write), math.ceil(read)
    monthly = (prices or Prices()).provisioned_monthly(write_capacity_units=wcu, read_capacity_units=rcu)
    unit, value = ("RCU", rcu) if reads else ("WCU", wcu)
    text = f"give the index its own {unit}: {value:,}" if facts.index else f"raise {unit} to {value:,}"
    fixes = [Fix(f"{text} (the load's busiest second, without retries)", unit, value, monthly)]
    step = _step(report, facts)
    if step:
        text = (
            f"auto scaling (target {AUTO_SCALING_TARGET:.0%}, minimum {value:,}): it raises capacity only "
            "after two minutes above the target plus the table update (minutes), so without that minimum the "
            f"load's step from {step[0]:,.0f} to {step[1]:,.0f} units/s throttles meanwhile"
        )
        fixes.append(Fix(text, "auto scaling minimum", value, mine.autoscaled))
    fixes += [
        Fix(f"on-demand capacity for {what}", "capacity mode", None, mine.on_demand),
        _maximum(write, read, what, prices),
    ]
    return tuple(fixes)


def _maximum(write: float, read: float, what: str, prices: Prices | None) -> Fix:
    """On-demand's maximum throughput at the load's peak: the cap on the bill, past which it throttles."""
    cap = (prices or Prices()).on_demand_monthly(write_units_per_second=write, read_units_per_second=read)
    return Fix(
        f"on-demand, a maximum throughput of {write:,.0f} write / {read:,.0f} read units/s caps "
        f"{what}'s bill at {dollars(cap)} a month (requests past it throttle)",
        "maximum throughput",
        write,
    )


def growth_judgement(report: Report, facts: SpaceFacts) -> tuple[str, tuple[Fix, ...]]:
    """On-demand: did the load break AWS's doubling rule (twice its peak, 30 minutes on)? A clause for the
    finding, and (broken) the ramp that keeps the rule up to the load's peak."""
    limits, warm = facts.limits, facts.setting.write_units
    rule, factor = max(1, round(limits.on_demand_peak_seconds / 60)), limits.on_demand_peak_factor
    minutes = report.demand.minute_peaks(facts.name, warm / facts.setting.read_units)
    broke = breach(minutes, warm, rule, factor)
    if broke is None:
        return (
            f"; the load kept AWS's growth rule (never past {factor:g}x its peak of {rule} minutes before)",
            (),
        )
    clause = (
        f": the load asked {broke.asked:,.0f} units/s in minute {broke.minute}, past {factor:g}x its peak of "
        f"{rule} minutes before ({broke.allowed:,.0f}/s allowed: on-demand grows that fast, no faster)"
    )
    steps = ramp(max(minutes), warm, rule, factor)
    plan = ", ".join(f"{units:,.0f}/s from minute {minute}" for minute, units in steps)
    return clause, (Fix(f"ramp by the rule: {plan}", "ramp", steps[-1][1]),)


def shuffle_fix(report: Report, facts: SpaceFacts) -> Fix:
    """Shuffling an ordered load: the rate its partitions allow a shuffled order, without retries."""
    assert report.shape is not None
    table = min(facts.setting.write_units, facts.quota)  # what the table serves from the start
    rate = report.shape.shuffled_rate(facts.partition_units, table)
    seconds = report.items / rate if rate else 0.0
    return Fix(
        f"shuffle the load (or interleave the keys) so every partition works at once: its partitions allow "
        f"up to {rate:,.0f} items/s then (the busiest holds {max(report.shape.shares):.0%} of the units; "
        f"{seconds:,.0f} s instead of {report.duration:,.0f} s)",
        "order",
        rate,
    )


def read_fixes(report: Report, facts: SpaceFacts, units: float) -> list[Fix]:
    """Cheaper reads of a key at `units` read units a second: eventually consistent, smaller items."""
    fixes, limit = [], facts.partition_read_units
    if report.consistent:
        fixes.append(
            Fix(
                f"eventually consistent reads (half the units: {units / 2:,.0f} of a partition's "
                f"{limit:,.0f} read units/s)",
                "ConsistentRead",
                0.0,
            )
        )
    unit, each = facts.limits.read_unit_bytes, read_units(round(report.item_bytes), True, facts.limits)
    if each > 1:  # in strongly consistent units: what an item of this size costs a read, by the one rule
        fixes.append(
            Fix(
                f"smaller items (under {unit / 1024:g} KB: 1 read unit each instead of {each:g}: "
                f"{units / each:,.0f} units/s)",
                "item bytes",
                unit,
            )
        )
    return fixes


def write_size_fix(report: Report, facts: SpaceFacts, units: float) -> list[Fix]:
    """Smaller items for a key written at `units` write units a second."""
    unit, each = facts.limits.write_unit_bytes, write_units(round(report.item_bytes), facts.limits)
    if each == 1:
        return []
    return [
        Fix(
            f"smaller items (under {unit / 1024:g} KB: 1 write unit each instead of {each}: "
            f"{units / each:,.0f} units/s)",
            "item bytes",
            unit,
        )
    ]


def _step(report: Report, facts: SpaceFacts) -> tuple[float, float] | None:
    """The load's biggest step between minutes (from, to), when it changes by more than a fifth."""
    minutes = report.demand.minute_peaks(facts.name, facts.limits.read_cost)
    steps = [(a, b) for a, b in itertools.pairwise(minutes) if b > 1.2 * a]
    return max(steps, key=lambda step: step[1] - step[0], default=None)
