"""The four ways of answering a box, each returning what it found and what it cost (a Run)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import boto3
from boto3.dynamodb.conditions import Key

from _zorder_search.data import TABLE
from infra.constructs.places import INDEX_NAME, PLACES_SCHEMA
from places.models import MAX_LIMIT
from zorder import Box
from zorder.bigmin import next_in_box

PAGE = MAX_LIMIT  # a client reading a whole box asks for the largest pages the API allows


@dataclass
class Run:
    """What one strategy did for one box."""

    ids: set[str] = field(default_factory=set)
    read: int = 0
    queries: int = 0
    rcu: float = 0.0
    seconds: float = 0.0

    @property
    def amplification(self) -> float:
        return self.read / max(len(self.ids), 1)


def run_ours(settings: Any, model: Any, request: Any) -> Run:
    from places.search import run_page

    run, cursor = Run(), None
    while True:
        items, cursor, stats = run_page(request, PAGE, cursor, settings, model)
        run.ids.update(i["id"] for i in items)
        run.read, run.queries, run.rcu = (
            run.read + stats.items_read,
            run.queries + stats.queries,
            run.rcu + stats.consumed_rcu,
        )
        if cursor is None:
            return run


def _query(table: Any, run: Run, bucket: str, first: int, last: int, **extra: Any) -> dict[str, Any]:
    response = table.query(
        IndexName=INDEX_NAME,
        KeyConditionExpression=Key("zbucket").eq(bucket)
        & Key("zaddr").between(first.to_bytes(8), last.to_bytes(8)),
        ReturnConsumedCapacity="TOTAL",
        **extra,
    )
    run.queries += 1
    run.read += response["ScannedCount"]
    run.rcu += response["ConsumedCapacity"]["CapacityUnits"]
    return response


def run_single(settings: Any, request: Any) -> Run:
    table, run = boto3.resource("dynamodb").Table(TABLE), Run()
    for box in request.boxes(PLACES_SCHEMA, settings.domain):
        shift = settings.bucket_shift
        for number in range(box.zmin >> shift, (box.zmax >> shift) + 1):
            first, last = max(box.zmin, number << shift), min(box.zmax, ((number + 1) << shift) - 1)
            extra: dict[str, Any] = {"FilterExpression": request.condition()}
            while True:
                response = _query(table, run, settings.bucket_name(number), first, last, **extra)
                run.ids.update(i["id"] for i in response["Items"])
                if "LastEvaluatedKey" not in response:
                    break
                extra["ExclusiveStartKey"] = response["LastEvaluatedKey"]
    return run


def _loop_box(settings: Any, table: Any, run: Run, request: Any, box: Box) -> None:
    """Tropf-Herzog's loop: Limit=25 pages in address order, jumping to BIGMIN past items outside."""
    shift, z, start = settings.bucket_shift, box.zmin, None
    while z is not None:
        number = z >> shift
        last = min(box.zmax, ((number + 1) << shift) - 1)
        extra = {"Limit": 25, **({"ExclusiveStartKey": start} if start else {})}
        response = _query(table, run, settings.bucket_name(number), z, last, **extra)
        target, start = None, None
        for item in response["Items"]:
            address = int.from_bytes(item["zaddr"].value)
            if target is not None and address < target:
                continue
            if box.contains(address):
                target = None
                if request.matches(item):
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


def run_loop(settings: Any, request: Any) -> Run:
    table, run = boto3.resource("dynamodb").Table(TABLE), Run()
    for box in request.boxes(PLACES_SCHEMA, settings.domain):
        _loop_box(settings, table, run, request, box)
    return run


def run_scan(request: Any) -> Run:
    table, run, extra = (
        boto3.resource("dynamodb").Table(TABLE),
        Run(),
        {"FilterExpression": request.condition()},
    )
    while True:
        response = table.scan(ReturnConsumedCapacity="TOTAL", **extra)
        run.queries += 1
        run.read += response["ScannedCount"]
        run.rcu += response["ConsumedCapacity"]["CapacityUnits"]
        run.ids.update(i["id"] for i in response["Items"])
        if "LastEvaluatedKey" not in response:
            return run
        extra["ExclusiveStartKey"] = response["LastEvaluatedKey"]


def timed(work: Callable[[], Run]) -> Run:
    started = time.perf_counter()
    run = work()
    run.seconds = time.perf_counter() - started
    return run
