"""Hot keys and hot items: one key (or one item) takes its partition, and what spreads or relieves it.

A key is a second's cause when it served at least `DOMINANT` of what its partition served, or
`AHEAD` times the runner-up. Its fixes come from its own units (its share of what the load asks,
`fixes.key_peak`): writes spread over N key values (an item sharded in N, a GSI's key spread), reads
cached, copied N times, read eventually consistent, or made smaller. With no throttling, a key
near its partition's limit is still named: a little more throttles, and an item never splits.
"""

from __future__ import annotations

from collections import Counter

from tatami.capacity.reports.facts import KeyTop, SpaceFacts
from tatami.capacity.reports.fixes import key_peak, read_fixes, shard_count, write_size_fix
from tatami.capacity.reports.report import Report
from tatami.capacity.reports.verdict import Diagnosis, Fix

__all__ = ["AHEAD", "DOMINANT", "dominant", "hot", "hot_fixes", "unthrottled_warnings"]

DOMINANT = 0.8  # a key serving this share of a partition's second is that second's cause
AHEAD = 3.0  # ... or this many times the runner-up's share


def dominant(entry: KeyTop) -> bool:
    top = entry.top
    return top.share >= DOMINANT or top.share >= AHEAD * top.runner_up_share


def unthrottled_warnings(report: Report, facts: SpaceFacts, reads: bool) -> list[Diagnosis]:
    """No throttling, but one key or item ran its partition near the limit: it throttles past that."""
    near = [entry for entry in facts.tops if not entry.top.throttled and dominant(entry)]
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
    fixes = hot_fixes(report, facts, (key,), item, reads)
    return [Diagnosis("hot item" if item else "hot key", facts.name, 1.0, (key,), finding, fixes)]


def hot(report: Report, facts: SpaceFacts, share: float, reads: bool, mine: list[KeyTop]) -> Diagnosis:
    keys = tuple(key for key, _ in Counter(entry.key for entry in mine).most_common())
    item = sum(entry.top.one_item for entry in mine) * 2 >= len(mine)
    what = "hot item" if item else "hot key"
    each = "each alone takes its partition" if len(keys) > 1 else "alone takes its partition"
    named = ", ".join(keys[:4]) + (", ..." if len(keys) > 4 else "")
    finding = (
        f"{what}{'s' if len(keys) > 1 else ''} {named} {each} in {len(mine):,} throttled seconds "
        f"({'one item, which never splits' if item else 'one partition key over a partition limit'})"
    )
    return Diagnosis(what, facts.name, share, keys, finding, hot_fixes(report, facts, keys, item, reads))


def hot_fixes(
    report: Report, facts: SpaceFacts, keys: tuple[str, ...], item: bool, reads: bool
) -> tuple[Fix, ...]:
    """Spread the hottest key's writes over enough keys for its units; serve its reads elsewhere or cheaper.

    A key both written and read gets both kinds of fix, the ones for what dominates first. Its keys
    needed count what it costs its partition, reads and writes together.
    """
    write, read = max((key_peak(report, facts, key) for key in keys), key=sum)
    needed = shard_count(write + read * facts.limits.read_cost, facts.partition_units)
    written = _write_fixes(report, facts, write, needed, item) if write else []
    read_ones = _read_fixes(report, facts, read, needed) if read else []
    return tuple(read_ones + written if reads else written + read_ones)


def _write_fixes(report: Report, facts: SpaceFacts, write: float, needed: int, item: bool) -> list[Fix]:
    where = "its index key" if facts.index else "it"
    text = (
        f"shard the item: {needed} items with a random suffix, summed on read, as the counters do"
        if item
        else f"spread {where} over {needed} partition key values (more partition key values: a suffix)"
    )
    return [
        Fix(f"{text} ({write:,.0f} write units/s)", "shards", needed),
        *write_size_fix(report, facts, write),
    ]


def _read_fixes(report: Report, facts: SpaceFacts, read: float, copies: int) -> list[Fix]:
    return [
        Fix("cache it (DAX serves eventually consistent reads; an application cache serves any)", "cache"),
        Fix(
            f"keep {copies} copies under their own keys, read one at random ({read:,.0f} read units/s)",
            "copies",
            copies,
        ),
        *read_fixes(report, facts, read),
    ]
