"""The search strategies replayed over an in-memory copy of the index (a sorted list of addresses).

A Query of ``first..last`` reads exactly the entries between them, as DynamoDB's ScannedCount says;
its RCU is modelled as DynamoDB bills a Query (the bytes read by DynamoDB's item-size rules, rounded
up to 4 KB, half a unit per 4 KB). Replaying takes seconds where DynamoDB Local takes minutes, so
index layouts can be compared on the same workload before one is deployed.
"""

from __future__ import annotations

from typing import Any

from _zorder_search.oracle import Index, rcu
from _zorder_search.strategies import Run
from places import planner
from places.density import Density
from zorder import Box
from zorder.bigmin import next_in_box


class Replay(Run):
    """What one strategy read and paid for one box, counted by replaying its Queries."""

    def query(self, index: Index, first: int, last: int) -> tuple[int, int]:
        """One Query of addresses first..last; returns the index positions it read."""
        i, j = index.positions(first, last)
        self.queries += 1
        self.read += j - i
        self.rcu += rcu(index.bytes_between(i, j - 1)) if j > i else 0.0
        return i, j


def ours(index: Index, rows: dict[str, Any], settings: Any, request: Any, density: Density) -> Replay:
    """The planner's spans, each read whole (what the executor does for a single page)."""
    replay = Replay()
    boxes = request.boxes(settings.schema, settings.domain)
    for span in planner.plan(settings, boxes, density).spans:
        i, j = replay.query(index, span.first, span.last)
        replay.ids.update(index.ids[k] for k in range(i, j) if request.matches(rows[index.ids[k]]))
    return replay


def single(index: Index, settings: Any, request: Any) -> Replay:
    """One ``BETWEEN zmin AND zmax`` Query per bucket the box touches."""
    replay, shift = Replay(), settings.bucket_shift
    for box in request.boxes(settings.schema, settings.domain):
        for number in range(box.zmin >> shift, (box.zmax >> shift) + 1):
            replay.query(index, max(box.zmin, number << shift), min(box.zmax, ((number + 1) << shift) - 1))
    return replay


def loop_queries(index: Index, settings: Any, request: Any, limit: int = 25) -> int:
    """Queries of the Tropf-Herzog loop with ``Limit=limit`` (as strategies.run_loop runs it)."""
    return sum(
        _loop_box(index, settings, box, limit) for box in request.boxes(settings.schema, settings.domain)
    )


def _loop_box(index: Index, settings: Any, box: Box, limit: int) -> int:
    shift, z, start, queries = settings.bucket_shift, box.zmin, None, 0
    while z is not None:
        last = min(box.zmax, (((z >> shift) + 1) << shift) - 1)
        first_position, end = index.positions(z, last)
        position = start if start is not None else first_position
        page_end = min(position + limit, end)
        queries += 1
        target: int | None = None
        for k in range(position, page_end):
            address = index.addresses[k]
            if target is not None and address < target:
                continue
            if box.contains(address):
                target = None
            else:
                target = next_in_box(address, box)
                if target is None:
                    return queries
        if target is None and page_end < end:
            start = page_end  # the page ended inside the box: ExclusiveStartKey
            continue
        start = None
        if target is not None and target <= last:
            z = target
        else:
            following = max(last + 1, target or 0)
            z = next_in_box(following, box) if following <= box.zmax else None
    return queries
