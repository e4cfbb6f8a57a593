"""The roll-up's idea: one total item per counter, kept from the shards' stream for cheap reads.

Each record of the shards table's stream carries the shard's absolute count and its write version
(NewImage). A batch is reduced to the newest state per shard (`newest_states`), then each counter's
roll-up item is written once (one write per counter per batch, not per increment: the roll-up item
is a single key and must stay under its own 1,000 WCU). The write only replaces entries that are
behind (`CountersRepository.save_rollup`), so a redelivered batch, a retry after a partial failure
or a duplicate record cannot double count, and one lost record heals with the shard's next record.
Pure: `service.roll_up` applies a batch.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from tatami_functions.counters.sharding import parse_shard_key
from tatami_functions.counters.table import COUNT, SHARDS, VERSION

__all__ = ["ShardState", "Update", "newest_states", "shard_update"]

_KEY = SHARDS.partition_key.name


@dataclass(frozen=True, slots=True)
class ShardState:
    """A shard as the roll-up last saw it: its write version, its count, the record's time (epoch s)."""

    version: int
    count: int
    at: int


Update = tuple[str, int, ShardState]  # counter name, shard number, the shard's state


def shard_update(record: dict[str, Any]) -> Update | None:
    """What one stream record says about its shard; None for a REMOVE (counters are never deleted).

    >>> shard_update({"eventName": "MODIFY", "dynamodb": {"ApproximateCreationDateTime": 1700000000,
    ...     "Keys": {"pk": {"S": "votes-A#3"}}, "NewImage": {"pk": {"S": "votes-A#3"},
    ...     "count": {"N": "7"}, "v": {"N": "5"}}}})
    ('votes-A', 3, ShardState(version=5, count=7, at=1700000000))
    """
    if record.get("eventName") == "REMOVE":
        return None
    stream = record["dynamodb"]
    try:
        name, shard = parse_shard_key(stream["Keys"][_KEY]["S"])
        image = stream["NewImage"]
        state = ShardState(
            int(image[VERSION]["N"]), int(image[COUNT]["N"]), int(stream["ApproximateCreationDateTime"])
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not a shard record ({type(exc).__name__}: {exc})") from None
    return name, shard, state


def newest_states(updates: Iterable[Update]) -> dict[str, dict[int, ShardState]]:
    """Per counter, the newest state of each shard (highest version).

    >>> newest_states([("a", 0, ShardState(1, 1, 9)), ("a", 0, ShardState(2, 3, 9))])
    {'a': {0: ShardState(version=2, count=3, at=9)}}
    """
    newest: dict[str, dict[int, ShardState]] = {}
    for name, shard, state in updates:
        shards = newest.setdefault(name, {})
        if shard not in shards or shards[shard].version < state.version:
            shards[shard] = state
    return newest
