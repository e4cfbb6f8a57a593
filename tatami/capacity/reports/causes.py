"""Partition-level throttling told apart by the shape of the load and by whom the partitions served.

First the shape: a bulk load whose order walks the table partition by partition (`order.LoadShape`:
key order at any speed, rows grouped by key, a Scan export reloaded as it came) is a rolling hot
partition whatever each second looks like, when shuffling would make it faster: fixed by shuffling,
with the rate a shuffled order reaches. Otherwise `SpaceFacts.tops` are read: the seconds in which
a partition refused requests of its own (or ran near its limit), with the key it served most and
the runner-up. A key is that second's cause when it dominates it (`hot.dominant`: a hot key among
small ones); two keys of comparable shares that together served `TOGETHER` of it collide.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from tatami.capacity.model.placement import expected_rate
from tatami.capacity.reports.facts import KeyTop, SpaceFacts
from tatami.capacity.reports.fixes import capacity_fixes, growth_judgement, shuffle_fix, warm_target
from tatami.capacity.reports.hot import dominant, hot
from tatami.capacity.reports.report import Report
from tatami.capacity.reports.verdict import Diagnosis, Fix
from tatami.capacity.workloads.setting import Sharding

__all__ = ["partition_diagnoses"]

TOGETHER = 0.5  # two keys serving this share together (neither dominant) share the partition
HOT, ROLLING, COLLISION, BUSY = "hot", "rolling", "collision", "busy"
EVERYWHERE = 0.75  # partitions throttling in the same second, of the table's: the table is the limit
RUNS_NAMED = 4  # keys named of a rolling hot partition (each with its window)
FASTER = 1.25  # shuffling counts as a fix when the shuffled order would go this much faster


def partition_diagnoses(report: Report, facts: SpaceFacts, share: float, reads: bool) -> list[Diagnosis]:
    """The causes of the throttles partitions' own limits made (`share` of the space's throttles).

    An ordered load is one cause. Otherwise each partition's throttled seconds show one pattern;
    partitions of one pattern make one diagnosis, whose share is theirs of the requests partitions
    refused.
    """
    tops = [entry for entry in facts.tops if entry.top.throttled]
    if _ordered(report, facts):
        return [_rolling(report, facts, share, tops)]
    by_partition: dict[str, list[KeyTop]] = defaultdict(list)
    for entry in tops:
        by_partition[entry.partition].append(entry)
    in_order = report.shape is not None and report.shape.ordered and not facts.secondary
    by_pattern: dict[str, list[KeyTop]] = defaultdict(list)
    for mine in by_partition.values():
        pattern = _pattern(mine)
        by_pattern[ROLLING if in_order and pattern != HOT else pattern] += mine  # an ordered load's doing
    found, refused = [], sum(entry.top.own for entry in tops)
    for pattern, mine in by_pattern.items():
        mine.sort(key=lambda entry: entry.top.second)
        part = share * sum(entry.top.own for entry in mine) / refused
        if pattern == HOT:
            found.append(hot(report, facts, part, reads, [entry for entry in mine if dominant(entry)]))
        elif pattern == ROLLING:
            named = mine if in_order else [entry for entry in mine if dominant(entry)]
            found.append(_rolling(report, facts, part, named))
        elif pattern == COLLISION:
            pairs = [entry for entry in mine if _paired(entry)]
            found.append(_collision(report, facts, part, pairs, report.sharding))
        else:
            found.append(_busy(report, facts, part, mine, reads))
    return found


def _ordered(report: Report, facts: SpaceFacts) -> bool:
    """The load's order walks the table's partitions, and a shuffled order would be faster."""
    shape = report.shape
    if facts.secondary or shape is None or not shape.ordered:
        return False
    rate = shape.shuffled_rate(facts.partition_units, min(facts.setting.write_units, facts.quota))
    return rate > FASTER * report.throughput


def _pattern(tops: list[KeyTop]) -> str:
    """One partition's throttled seconds: one key (hot), one key at a time (rolling), a few, or many."""
    dominated = [entry for entry in tops if dominant(entry)]
    if 2 * len(dominated) >= len(tops):
        counts = Counter(entry.key for entry in dominated)
        seconds = counts.most_common(1)[0][1]
        return HOT if 2 * seconds >= len(dominated) or len(counts) < 3 else ROLLING
    pairs = [entry for entry in tops if _paired(entry)]
    return COLLISION if 2 * len(pairs) >= len(tops) else BUSY


def _paired(entry: KeyTop) -> bool:
    return entry.top.runner_up >= 0 and entry.top.share + entry.top.runner_up_share >= TOGETHER


def _rolling(report: Report, facts: SpaceFacts, share: float, tops: list[KeyTop]) -> Diagnosis:
    """An ordered load: one partition at a time, named by the keys hot in their windows."""
    runs: list[tuple[str, int, int]] = []  # (key, first second, last second), in time order
    for entry in sorted(tops, key=lambda entry: entry.top.second):
        if runs and runs[-1][0] == entry.key:
            runs[-1] = (entry.key, runs[-1][1], entry.top.second)
        else:
            runs.append((entry.key, entry.top.second, entry.top.second))
    keys = tuple(dict.fromkeys(key for key, _, _ in runs))
    named = ", ".join(f"{key} ({first}-{last + 1} s)" for key, first, last in runs[:RUNS_NAMED])
    more = ", ..." if len(runs) > RUNS_NAMED else ""
    shape = report.shape
    order = (
        f"the load is in key order ({shape.same:.0%} of its items land on the partition of the item before "
        f"them; shuffled, {shape.expected:.0%} would)"
        if shape is not None and shape.ordered
        else "the load sends one key at a time"
    )
    finding = (
        f"rolling hot partition: {order}, so one partition works while the others wait "
        f"(keys hot in their window: {named}{more}; {len(keys):,} keys in turn)"
    )
    fix = (
        shuffle_fix(report, facts)
        if shape is not None
        else Fix("shuffle the load (or interleave the keys) so every partition works at once", "order")
    )
    return Diagnosis("rolling hot partition", facts.name, share, keys, finding, (fix,))


def _collision(
    report: Report, facts: SpaceFacts, share: float, pairs: list[KeyTop], sharding: Sharding | None
) -> Diagnosis:
    pair, seconds = Counter(tuple(sorted((entry.key, entry.runner_up))) for entry in pairs).most_common(1)[0]
    where = (
        f"{pair[0]} and {pair[1]} share a partition (where their hashes fell; {seconds:,} throttled seconds)"
    )
    if sharding and all(key.startswith(f"{sharding.name}#") for key in pair):
        finding = f"shard collision: {where}, each under the partition's limit alone"
        return Diagnosis("shard collision", facts.name, share, pair, finding, _shard_gain(facts, sharding))
    finding = f"key collision: {where}, each under the partition's limit alone"
    partitions = facts.partitions[1]
    warm = 2 * partitions * facts.partition_units
    fixes = (
        Fix(
            f"more partitions to part them: warm throughput to {warm:,.0f} ({2 * partitions} partitions)",
            "warm throughput",
            warm,
        ),
        Fix("more partition key values to spread them", "partition keys"),
    )
    return Diagnosis("collision", facts.name, share, pair, finding, fixes)


def _shard_gain(facts: SpaceFacts, sharding: Sharding) -> tuple[Fix, ...]:
    """Twice the shards, or twice the partitions, each priced over random hash placements."""
    shards, rate, partitions, table = sharding.shards, sharding.rate, facts.partitions[1], facts.write_rate
    limit = facts.partition_units
    now = expected_rate(shards, rate, partitions, limit, table)
    more = expected_rate(2 * shards, rate, partitions, limit, table)
    warm = 2 * partitions * limit
    wider = expected_rate(shards, rate, 2 * partitions, limit, min(max(table, warm), facts.quota))
    return (
        Fix(
            f"more shards: {more:,.0f}/s expected with {2 * shards} shards (over hash placements, of "
            f"{rate:,.0f}/s; {now:,.0f}/s as it is)",
            "shards",
            2 * shards,
        ),
        Fix(
            f"warm throughput: {wider:,.0f}/s expected warmed to {warm:,.0f} ({2 * partitions} partitions)",
            "warm throughput",
            warm,
        ),
    )


def _busy(report: Report, facts: SpaceFacts, share: float, tops: list[KeyTop], reads: bool) -> Diagnosis:
    keys = max((entry.top.keys for entry in tops), default=0)
    busiest = Counter(entry.top.second for entry in tops).most_common(1)
    second, at_once = busiest[0] if busiest else (0, 0)
    partitions = facts.partitions_at(second)
    if at_once >= max(2, EVERYWHERE * partitions):  # the whole table is its partitions' limit
        finding = (
            f"its partitions at their own limits together ({at_once} of its {partitions} in one second): "
            "the table has too few partitions for the load"
        )
        fixes = capacity_fixes(report, facts, reads)
        if not facts.provisioned:
            clause, ramp = growth_judgement(report, facts)
            finding, fixes = f"{finding}{clause}", (*fixes, *ramp)
        return Diagnosis("table limit", facts.name, share, (), finding, fixes)
    finding = (
        f"busy partitions: up to {keys:,} keys on one partition, none of them dominant "
        f"({len(tops):,} throttled partition-seconds)"
    )
    write, read = report.demand.peak(facts.name)
    warm = warm_target(write + read * facts.limits.read_cost, facts)
    more_keys = Fix(
        "more partition key values (a partition near its limit also splits, after minutes)", "keys"
    )
    if warm <= partitions * facts.partition_units:  # it had those partitions when it throttled most
        return Diagnosis("busy partition", facts.name, share, (), finding, (more_keys,))
    wanted = f"{warm / facts.partition_units:,.0f} partitions"
    fixes = (
        Fix(f"more partitions: warm throughput to {warm:,.0f} ({wanted})", "warm throughput", warm),
        more_keys,
    )
    return Diagnosis("busy partition", facts.name, share, (), finding, fixes)
