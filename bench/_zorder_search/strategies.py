"""The ways of answering a box, each returning what it found and what it cost (a Run)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from _zorder_search.data import DECLARATION, client
from zindex import Cursor, SearchQuery, ZIndex
from zindex.search import Searcher
from zorder import Box
from zorder.bigmin import next_in_box

Z = next(i for i in DECLARATION.indexes if isinstance(i, ZIndex) and i.name == "places-z")
SHIFT = Z.bucket_shift(DECLARATION)


@dataclass
class Run:
    """What one strategy did for one box."""

    ids: set[str] = field(default_factory=set)
    read: int = 0
    queries: int = 0
    rcu: float = 0.0
    seconds: float = 0.0
    pages: int = 0
    planning_ms: float = 0.0  # ours: the first page's planning
    estimated_reads: float = 0.0  # ours: the chosen plan's estimate for the whole search
    plan: str = ""

    @property
    def amplification(self) -> float:
        return self.read / max(len(self.ids), 1)


def run_ours(searcher: Searcher, query: SearchQuery, page: int) -> Run:
    """Every page of the search, each through the cursor's JSON form (what a page token carries)."""
    run, cursor = Run(), None
    started = time.perf_counter()
    while True:
        found = searcher.search(query, page, cursor)
        if not run.pages:
            run.planning_ms, run.plan = found.planning_ms, found.choice.chosen.kind
            run.estimated_reads = found.choice.chosen.estimate.reads
        run.pages += 1
        run.ids.update(i["id"] for i in found.items)
        run.read += found.stats.items_read
        run.queries += found.stats.queries
        run.rcu += found.stats.consumed_rcu
        if found.cursor is None:
            run.seconds = time.perf_counter() - started
            return run
        cursor = Cursor.from_json(found.cursor.to_json())


def _query(dynamodb: Any, run: Run, bucket: int, first: int, last: int, **extra: Any) -> dict[str, Any]:
    response = dynamodb.query(
        TableName=DECLARATION.table,
        IndexName=Z.name,
        KeyConditionExpression="zbucket = :b AND zaddr BETWEEN :f AND :l",
        ExpressionAttributeValues={
            ":b": {"S": Z.bucket_name(bucket)},
            ":f": {"B": first.to_bytes(8)},
            ":l": {"B": last.to_bytes(8)},
            **extra.pop("values", {}),
        },
        ReturnConsumedCapacity="TOTAL",
        **extra,
    )
    run.queries += 1
    run.read += response["ScannedCount"]
    run.rcu += response["ConsumedCapacity"]["CapacityUnits"]
    return response


def _filter(query: SearchQuery) -> dict[str, Any]:
    from zindex.dynamojson import to_wire

    search = query.filter()
    if search is None:
        return {}
    return {
        "FilterExpression": search.expression,
        "ExpressionAttributeNames": search.names,
        "values": {k: to_wire(v) for k, v in search.values.items()},
    }


def run_single(query: SearchQuery) -> Run:
    """One Query BETWEEN zmin AND zmax per bucket the box touches, the bounds as a FilterExpression."""
    dynamodb, run = client(), Run()
    started = time.perf_counter()
    for box in Z.boxes(query):
        for number in range(box.zmin >> SHIFT, (box.zmax >> SHIFT) + 1):
            first, last = max(box.zmin, number << SHIFT), min(box.zmax, ((number + 1) << SHIFT) - 1)
            extra = _filter(query)
            while True:
                response = _query(dynamodb, run, number, first, last, **dict(extra))
                run.ids.update(i["id"]["S"] for i in response["Items"])
                if "LastEvaluatedKey" not in response:
                    break
                extra["ExclusiveStartKey"] = response["LastEvaluatedKey"]
    run.seconds = time.perf_counter() - started
    return run


def _loop_box(dynamodb: Any, run: Run, query: SearchQuery, box: Box) -> None:
    """Tropf-Herzog's loop: Limit=25 pages in address order, jumping to BIGMIN past items outside."""
    from zindex.dynamojson import to_item

    z, start = box.zmin, None
    while z is not None:
        number = z >> SHIFT
        last = min(box.zmax, ((number + 1) << SHIFT) - 1)
        extra = {"Limit": 25, **({"ExclusiveStartKey": start} if start else {})}
        response = _query(dynamodb, run, number, z, last, **extra)
        target, start = None, None
        for raw in response["Items"]:
            item = to_item(raw)
            address = int.from_bytes(item["zaddr"])
            if target is not None and address < target:
                continue
            if box.contains(address):
                target = None
                if query.matches(item):
                    run.ids.add(item["id"])
            else:
                target = next_in_box(address, box)
                if target is None:
                    return
        if target is None and "LastEvaluatedKey" in response:
            start = response["LastEvaluatedKey"]
        elif target is not None and target <= last:
            z = target
        else:
            following = max(last + 1, target or 0)
            z = next_in_box(following, box) if following <= box.zmax else None


def run_loop(query: SearchQuery) -> Run:
    dynamodb, run = client(), Run()
    started = time.perf_counter()
    for box in Z.boxes(query):
        _loop_box(dynamodb, run, query, box)
    run.seconds = time.perf_counter() - started
    return run


def run_scan(query: SearchQuery) -> Run:
    """A Scan of the table with the bounds as a FilterExpression."""
    from zindex.dynamojson import to_wire

    dynamodb, run = client(), Run()
    search = query.filter(require=tuple(a.name for a in DECLARATION.attributes))
    extra: dict[str, Any] = {}
    if search is not None:
        extra = {"FilterExpression": search.expression, "ExpressionAttributeNames": search.names}
        if search.values:
            extra["ExpressionAttributeValues"] = {k: to_wire(v) for k, v in search.values.items()}
    started = time.perf_counter()
    while True:
        response = dynamodb.scan(TableName=DECLARATION.table, ReturnConsumedCapacity="TOTAL", **extra)
        run.queries += 1
        run.read += response["ScannedCount"]
        run.rcu += response["ConsumedCapacity"]["CapacityUnits"]
        run.ids.update(i["id"]["S"] for i in response["Items"] if not i["id"]["S"].startswith("__"))
        if "LastEvaluatedKey" not in response:
            run.seconds = time.perf_counter() - started
            return run
        extra["ExclusiveStartKey"] = response["LastEvaluatedKey"]
