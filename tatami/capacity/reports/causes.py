"""Partition-level throttling told apart by whom the partitions served, and what each case needs.

Reads `SpaceFacts.tops`: the seconds in which a partition refused requests of its own (or ran
near its limit), with the key it served most and the runner-up. A key is that second's cause when
it served at least `DOMINANT` of it, or `AHEAD` times what the runner-up served (a hot key among
small ones); two keys of comparable shares that together served `TOGETHER` of it collide.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from tatami.capacity.model.placement import expected_rate
from tatami.capacity.reports.report import KeyTop, SpaceFacts
from tatami.capacity.reports.verdict import Diagnosis
from tatami.capacity.workloads.builders import Sharding

__all__ = ["DOMINANT", "partition_diagnoses", "unthrottled_warnings"]

DOMINANT = 0.8  # a key serving this share of a partition's second is that second's cause
AHEAD = 3.0  # ... or this many times the runner-up's share
TOGETHER = 0.5  # two keys serving this share together (neither dominant) share the partition
HOT, ROLLING, COLLISION, BUSY = "hot", "rolling", "collision", "busy"
EVERYWHERE = 0.75  # partitions throttling in the same second, of the table's: the table is the limit
RUNS_NAMED = 4  # keys named of a rolling hot partition (each with its window)


def partition_diagnoses(
    facts: SpaceFacts, share: float, reads: bool, sharding: Sharding | None
) -> list[Diagnosis]:
    """The causes of the throttles partitions' own limits made (`share` of the space's throttles).

    Each partition's throttled seconds show one pattern; partitions of one pattern make one
    diagnosis, whose share is theirs of the requests partitions refused.
    """
    tops = [entry for entry in facts.tops if entry.top.throttled]
    by_partition: dict[str, list[KeyTop]] = defaultdict(list)
    for entry in tops:
        by_partition[entry.partition].append(entry)
    by_pattern: dict[str, list[KeyTop]] = defaultdict(list)
    for mine in by_partition.values():
        by_pattern[_pattern(mine)] += mine
    found, refused = [], sum(entry.top.own for entry in tops)
    for pattern, mine in by_pattern.items():
        mine.sort(key=lambda entry: entry.top.second)
        part = share * sum(entry.top.own for entry in mine) / refused
        if pattern == HOT:
            found.append(_hot(facts, part, reads, [entry for entry in mine if _dominant(entry)]))
        elif pattern == ROLLING:
            found.append(_rolling(facts, part, [entry for entry in mine if _dominant(entry)]))
        elif pattern == COLLISION:
            found.append(_collision(facts, part, [entry for entry in mine if _paired(entry)], sharding))
        else:
            found.append(_busy(facts, part, mine))
    return found


def _pattern(tops: list[KeyTop]) -> str:
    """One partition's throttled seconds: one key (hot), one key at a time (rolling), a few, or many."""
    dominated = [entry for entry in tops if _dominant(entry)]
    if 2 * len(dominated) >= len(tops):
        counts = Counter(entry.key for entry in dominated)
        seconds = counts.most_common(1)[0][1]
        return HOT if 2 * seconds >= len(dominated) or len(counts) < 3 else ROLLING
    pairs = [entry for entry in tops if _paired(entry)]
    return COLLISION if 2 * len(pairs) >= len(tops) else BUSY


def unthrottled_warnings(facts: SpaceFacts, reads: bool) -> list[Diagnosis]:
    """No throttling, but one key or item ran its partition near the limit: it throttles past that."""
    near = [entry for entry in facts.tops if not entry.top.throttled and _dominant(entry)]
    if not near:
        return []
    key, _ = Counter(entry.key for entry in near).most_common(1)[0]
    mine = [entry for entry in near if entry.key == key]
    limit = facts.partition_units
    peak = max(entry.top.used for entry in mine) / limit
    item = sum(entry.top.one_item for entry in mine) * 2 >= len(mine)
    scale = facts.partition_read_units if reads else limit
    units = f"{peak * scale:,.0f} of {scale:,.0f} {'read' if reads else 'write'}"
    finding = (
        f"{'hot item' if item else 'hot key'} {key} runs its partition at up to {peak:.0%} of its limit "
        f"({units} units a second){' and an item never splits' if item else ''}: a little more throttles"
    )
    return [
        Diagnosis("hot item" if item else "hot key", facts.name, 1.0, (key,), finding, _hot_fix(item, reads))
    ]


def _dominant(entry: KeyTop) -> bool:
    top = entry.top
    return top.share >= DOMINANT or top.share >= AHEAD * top.runner_up_share


def _paired(entry: KeyTop) -> bool:
    return entry.top.runner_up >= 0 and entry.top.share + entry.top.runner_up_share >= TOGETHER


def _hot(facts: SpaceFacts, share: float, reads: bool, mine: list[KeyTop]) -> Diagnosis:
    keys = tuple(key for key, _ in Counter(entry.key for entry in mine).most_common())
    item = sum(entry.top.one_item for entry in mine) * 2 >= len(mine)
    what = "hot item" if item else "hot key"
    each = "each alone takes its partition" if len(keys) > 1 else "alone takes its partition"
    named = ", ".join(keys[:4]) + (", ..." if len(keys) > 4 else "")
    finding = (
        f"{what}{'s' if len(keys) > 1 else ''} {named} {each} in {len(mine):,} throttled seconds "
        f"({'one item, which never splits' if item else 'one partition key over a partition limit'})"
    )
    return Diagnosis(what, facts.name, share, keys, finding, _hot_fix(item, reads))


def _hot_fix(item: bool, reads: bool) -> str:
    if reads:
        return (
            "cache it (DAX serves eventually consistent reads; an application cache serves any) "
            "or keep copies under several keys and read one at random"
        )
    if item:
        return "shard the item (several items with a random suffix, summed on read, as the counters do)"
    return "spread it over more partition key values (write sharding: a random or computed suffix)"


def _rolling(facts: SpaceFacts, share: float, dominated: list[KeyTop]) -> Diagnosis:
    runs: list[tuple[str, int, int]] = []  # (key, first second, last second), in time order
    for entry in dominated:
        if runs and runs[-1][0] == entry.key:
            runs[-1] = (entry.key, runs[-1][1], entry.top.second)
        else:
            runs.append((entry.key, entry.top.second, entry.top.second))
    keys = tuple(dict.fromkeys(key for key, _, _ in runs))
    named = ", ".join(f"{key} ({first}-{last + 1} s)" for key, first, last in runs[:RUNS_NAMED])
    more = ", ..." if len(runs) > RUNS_NAMED else ""
    finding = (
        "rolling hot partition: the load sends one key at a time, so one partition works while the "
        f"others wait (keys hot in their window: {named}{more}; {len(keys):,} keys in turn)"
    )
    fix = "shuffle the load (or interleave the keys) so every partition works at once"
    return Diagnosis("rolling hot partition", facts.name, share, keys, finding, fix)


def _collision(facts: SpaceFacts, share: float, pairs: list[KeyTop], sharding: Sharding | None) -> Diagnosis:
    pair, seconds = Counter(tuple(sorted((entry.key, entry.runner_up))) for entry in pairs).most_common(1)[0]
    where = (
        f"{pair[0]} and {pair[1]} share a partition (where their hashes fell; {seconds:,} throttled seconds)"
    )
    if sharding and all(key.startswith(f"{sharding.name}#") for key in pair):
        finding = f"shard collision: {where}, each under the partition's limit alone"
        return Diagnosis("shard collision", facts.name, share, pair, finding, _shard_gain(facts, sharding))
    finding = f"key collision: {where}, each under the partition's limit alone"
    fix = "more partitions (warm throughput) to part them, or more partition key values to spread them"
    return Diagnosis("collision", facts.name, share, pair, finding, fix)


def _shard_gain(facts: SpaceFacts, sharding: Sharding) -> str:
    """Twice the shards, or twice the partitions, each priced over random hash placements."""
    shards, rate, partitions, table = sharding.shards, sharding.rate, facts.partitions[0], facts.write_rate
    limit = facts.partition_units
    now = expected_rate(shards, rate, partitions, limit, table)
    more = expected_rate(2 * shards, rate, partitions, limit, table)
    warm = 2 * partitions * limit
    wider = expected_rate(shards, rate, 2 * partitions, limit, min(max(table, warm), facts.quota))
    return (
        f"more shards or warm throughput (expected over hash placements, of {rate:,.0f}/s: "
        f"{now:,.0f}/s as it is, {more:,.0f}/s with {2 * shards} shards, "
        f"{wider:,.0f}/s warmed to {warm:,.0f} ({2 * partitions} partitions))"
    )


def _busy(facts: SpaceFacts, share: float, tops: list[KeyTop]) -> Diagnosis:
    keys = max((entry.top.keys for entry in tops), default=0)
    at_once = Counter(entry.top.second for entry in tops).most_common(1)[0][1] if tops else 0
    partitions = facts.partitions[0]
    if at_once >= max(2, EVERYWHERE * partitions):  # the whole table is its partitions' limit
        finding = (
            f"its partitions at their own limits together ({at_once} in the same second; it started "
            f"with {partitions}): the table has too few partitions for the load"
        )
        fix = (
            "raise WCU/RCU (a provisioned table gets a partition per 1,000 WCU)"
            if facts.provisioned
            else "warm the table (warm throughput) to the load's rate, or ramp up over 30 minutes: "
            "on-demand doubles its previous peak"
        )
        return Diagnosis("table limit", facts.name, share, (), finding, fix)
    finding = (
        f"busy partitions: up to {keys:,} keys on one partition, none of them dominant "
        f"({len(tops):,} throttled partition-seconds)"
    )
    fix = (
        "more partitions (warm throughput) or more partition key values "
        "(a partition near its limit also splits, after minutes)"
    )
    return Diagnosis("busy partition", facts.name, share, (), finding, fix)
