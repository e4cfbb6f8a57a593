"""Reading a write-sharded index as one list: N parallel Queries merged in date order, paginated.

Seed 002: a status has few values, so StatusOrders' partition key is `Status#n` with n random in
1..N; reading a status means querying the N keys in parallel and merging. A page of `limit` asks
each live shard for `limit + 1` items (the page can come from one shard alone), merges them by
OrderDate, and keeps the first `limit`. Each shard contributes a prefix of what it returned, in
DynamoDB's own order, so its cursor is the key of the last item it contributed: nothing is skipped
or repeated, ties included.

The cursor maps shard number -> ExclusiveStartKey; a shard absent from it starts at the beginning,
a shard mapped to None is exhausted.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from itertools import islice

from tatami_functions.common.paging import Item, ReadStats

ShardCursor = dict[str, Item | None]


@dataclass(frozen=True, slots=True)
class ShardPage:
    """What one Query of one shard returned (low-level items, in index order)."""

    items: Sequence[Item]
    last_key: Item | None
    stats: ReadStats


Fetch = Callable[[int, Item | None, int], ShardPage]  # (shard, start key, limit) -> page


def merged_page(
    fetch: Fetch,
    shards: int,
    limit: int,
    cursor: ShardCursor | None,
    executor: Executor,
    key_names: Sequence[str],
) -> tuple[list[Item], ShardCursor | None, ReadStats]:
    """The next `limit` items across every shard in OrderDate order, the next cursor, the cost.

    For example (not run as a doctest)::

        merged_page(fetch, 10, 20, None, executor, ("StatusShard", "OrderDate", "OrderId"))
    """
    state: ShardCursor = dict(cursor or {})
    live = [n for n in range(1, shards + 1) if state.get(str(n), {}) is not None]
    pages = dict(zip(live, executor.map(lambda n: fetch(n, state.get(str(n)), limit + 1), live), strict=True))
    taken = list(_merge(pages, limit))
    for shard, page in pages.items():
        mine = [item for n, item in taken if n == shard]
        if page.last_key is None and len(mine) == len(page.items):
            state[str(shard)] = None  # everything this shard had is on this page or earlier ones
        elif mine:
            state[str(shard)] = {name: mine[-1][name] for name in key_names}
    stats = sum((page.stats for page in pages.values()), ReadStats())
    more = any(value is not None for value in _all(state, shards))
    return [item for _, item in taken], state if more else None, stats


def _merge(pages: dict[int, ShardPage], limit: int) -> list[tuple[int, Item]]:
    # heapq.merge keeps each shard's own order (it only interleaves), so every shard's share is a
    # prefix of its page; ties on OrderDate go to the lower shard number.
    streams = [
        [(item["OrderDate"]["S"], shard, item) for item in page.items] for shard, page in pages.items()
    ]
    merged = heapq.merge(*streams, key=lambda entry: (entry[0], entry[1]))
    return [(shard, item) for _, shard, item in islice(merged, limit)]


def _all(state: ShardCursor, shards: int) -> list[Item | None]:
    return [state.get(str(n), {}) for n in range(1, shards + 1)]
