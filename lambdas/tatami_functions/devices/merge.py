"""Newest-first merge of several sorted queries, paged with one cursor (pure: no I/O of its own).

Used twice: a device's logs across the five levels (its sort key orders by level first) and recent
logs across the N shards of the random-shard GSI. Every stream is queried newest first, in parallel,
for `per_stream` items. An item is safe to return only if no stream that stopped early could still
hold a newer one, so the page ends at the *frontier*: the newest point where a stream stopped (a
short page reads on from that stream, so a page reads about `limit` + N items, not N x `limit`). The
cursor keeps, per stream, the key after which to continue (the last item returned from it, or where
it stopped if all it read was returned) and which streams are exhausted; nothing is skipped, and an
item read but not returned is read again on the next page.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")
Key = dict[str, Any]
# (exclusive start key or None, how many) -> (items newest first, LastEvaluatedKey or None)
Fetch = Callable[[Key | None, int], tuple[list[T], Key | None]]


@dataclass(frozen=True)
class Stream[T]:
    name: str
    fetch: Fetch[T]


@dataclass(frozen=True)
class Order[T]:
    """How to compare: an item's order value, an item's key, and the order value of a stopping key."""

    of_item: Callable[[T], Any]
    key_of: Callable[[T], Key]
    of_key: Callable[[Key], Any]


def merge_page[T](
    streams: Sequence[Stream[T]], cursor: dict[str, Any] | None, limit: int, per_stream: int, order: Order[T]
) -> tuple[list[T], dict[str, Any] | None]:
    """The next `limit` (or fewer) items, newest first, and the cursor of the page after (None at the end).

    >>> a = Stream("a", lambda start, n: ([3, 1], None))
    >>> b = Stream("b", lambda start, n: ([2], None))
    >>> merge_page([a, b], None, 10, 10, Order(lambda i: i, lambda i: {"k": i}, lambda k: k["k"]))
    ([3, 2, 1], None)
    """
    after: dict[str, Key] = dict((cursor or {}).get("after", {}))
    done = set((cursor or {}).get("done", []))
    active = {stream.name: stream for stream in streams if stream.name not in done}
    fetched = _fetch(list(active.values()), after, per_stream)
    page, stopper = _safe_page(fetched, limit, order)
    # A short page: read on from the stream that stopped newest, at most once per stream.
    for _ in range(len(active)):
        if len(page) >= limit or stopper is None:
            break
        items, last = fetched[stopper]
        more, last = active[stopper].fetch(last, per_stream)
        fetched[stopper] = (items + more, last)
        page, stopper = _safe_page(fetched, limit, order)
    _advance(fetched, Counter(name for _item, name in page), after, done, order)
    next_cursor = None if len(done) == len(streams) else {"after": after, "done": sorted(done)}
    return [item for item, _name in page], next_cursor


def _advance[T](
    fetched: dict[str, tuple[list[T], Key | None]],
    taken: Counter[str],
    after: dict[str, Key],
    done: set[str],
    order: Order[T],
) -> None:
    """Move each stream's cursor past what the page returned from it (in place)."""
    for name, (items, last) in fetched.items():
        count = taken[name]
        if count == len(items):  # all it read was returned: continue where it stopped, if it did
            if last is None:
                done.add(name)
            else:
                after[name] = last
        elif count:
            after[name] = order.key_of(items[count - 1])


def _safe_page[T](
    fetched: dict[str, tuple[list[T], Key | None]], limit: int, order: Order[T]
) -> tuple[list[tuple[T, str]], str | None]:
    """The newest items no unread item can precede, and the stream that stopped newest (the frontier)."""
    stops = {name: order.of_key(last) for name, (_items, last) in fetched.items() if last is not None}
    stopper = max(stops, key=lambda name: stops[name]) if stops else None
    tagged = [(item, name) for name, (items, _last) in fetched.items() for item in items]
    tagged.sort(key=lambda pair: order.of_item(pair[0]), reverse=True)  # stable: keeps stream order
    if stopper is not None:
        tagged = [pair for pair in tagged if order.of_item(pair[0]) >= stops[stopper]]
    return tagged[:limit], stopper


def _fetch[T](
    streams: Sequence[Stream[T]], after: dict[str, Key], n: int
) -> dict[str, tuple[list[T], Key | None]]:
    if len(streams) <= 1:
        return {stream.name: stream.fetch(after.get(stream.name), n) for stream in streams}
    with ThreadPoolExecutor(max_workers=len(streams)) as pool:
        results = list(pool.map(lambda stream: stream.fetch(after.get(stream.name), n), streams))
    return {stream.name: result for stream, result in zip(streams, results, strict=True)}
