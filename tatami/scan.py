"""Parallel scan (seed 004's lab): every segment of a table read by its own thread, resumable.

One piece of code for every full-table read: `tatami scan`, index backfills and the local cloud's
stand-in for DynamoDB's export API (`tatami.local.engines.exports`, which runs in a function's
worker before its sandbox closes: so this module imports the standard library only, and tqdm
only when a progress bar is asked for).

Each page of items goes to `on_page(segment, items)` (items in the low-level attribute-value form),
in the scanning thread; a checkpoint file records each segment's
LastEvaluatedKey after its page was handled, so an interrupted run resumes where it stopped
(a page may be handled twice across a resume, never skipped: handlers must be idempotent).
The checkpoint also keeps each segment's item count and whatever the handler `stage`s for it
(e.g. how many bytes it wrote), saved with the key of the same page, so a handler can undo a page
that was handled but never recorded.
"""

from __future__ import annotations

import base64
import functools
import json
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PageHandler = Callable[[int, list[dict[str, Any]]], None]
ItemsRead = Callable[[int], None]


@dataclass
class ScanSummary:
    segments: int
    items: int = 0
    pages: int = 0
    consumed_rcu: float = 0.0
    seconds: float = 0.0
    resumed_segments: int = 0
    resumed_items: int = 0  # counted by the runs this one resumed

    @property
    def items_per_second(self) -> float:
        return self.items / self.seconds if self.seconds else 0.0

    def line(self) -> str:
        return (
            f"{self.items:,} items in {self.pages:,} pages over {self.segments} segments, "
            f"{self.seconds:.1f} s ({self.items_per_second:,.0f} items/s), {self.consumed_rcu:,.1f} RCU"
        )


@dataclass
class Checkpoint:
    """Per-segment progress in a JSON file: {"table", "segments", "keys": {segment: key | "done"},
    "counts": {segment: items}, "progress": {segment: what the handler staged}}."""

    path: Path
    table: str
    segments: int
    keys: dict[str, Any] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    progress: dict[str, Any] = field(default_factory=dict)
    _staged: dict[str, Any] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def open(cls, path: Path, table: str, segments: int) -> Checkpoint:
        """Resume `path` if it belongs to this table and segment count; start afresh otherwise."""
        if path.exists():
            saved = json.loads(path.read_text(), object_hook=_from_json)
            if saved.get("table") == table and saved.get("segments") == segments:
                keys, counts = saved.get("keys", {}), saved.get("counts", {})
                return cls(path, table, segments, keys, counts, saved.get("progress", {}))
        return cls(path, table, segments)

    def start_key(self, segment: int) -> Any:
        return self.keys.get(str(segment))

    def stage(self, segment: int, value: Any) -> None:
        """Keep `value` for the segment; it is saved by the segment's next `record`, with that key."""
        with self._lock:
            self._staged[str(segment)] = value

    def record(self, segment: int, key: Any, items: int = 0) -> None:
        with self._lock:
            name = str(segment)
            self.keys[name] = key if key is not None else "done"
            self.counts[name] = self.counts.get(name, 0) + items
            if name in self._staged:
                self.progress[name] = self._staged.pop(name)
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_suffix(".tmp")
            state = {"table": self.table, "segments": self.segments, "keys": self.keys}
            state |= {"counts": self.counts, "progress": self.progress}
            temporary.write_text(json.dumps(state, default=_to_json))
            temporary.replace(self.path)

    def finish(self) -> None:
        self.path.unlink(missing_ok=True)


def _to_json(value: Any) -> Any:
    """Binary key attributes (a LastEvaluatedKey's B values) as JSON: {"__b64": "..."}."""
    if isinstance(value, bytes):
        return {"__b64": base64.b64encode(value).decode()}
    raise TypeError(f"cannot save {type(value).__name__} in a scan checkpoint")


def _from_json(value: dict[str, Any]) -> Any:
    return base64.b64decode(value["__b64"]) if set(value) == {"__b64"} else value


def parallel_scan(
    client: Any,
    table: str,
    segments: int,
    on_page: PageHandler,
    *,
    progress: bool = True,
    checkpoint: Checkpoint | None = None,
    projection: str | None = None,
    on_items: ItemsRead | None = None,
    page_size: int | None = None,
    count_only: bool = False,
) -> ScanSummary:
    """Scan `table` with `segments` threads (Segment/TotalSegments), resumable through `checkpoint`.

    `progress` draws a bar over the table's approximate item count on stderr. `count_only` asks
    DynamoDB for counts (Select=COUNT): pages reach `on_page` without items, and the summary still
    counts them (the read units are the same; the network carries no items). `on_items(n)` is told
    after each page how many items it held.

    For example (not run as a doctest)::

        parallel_scan(client, "Tatami-Places", 4, lambda segment, items: None)
        # -> ScanSummary(segments=4, items=25000, ...)
    """
    # DescribeTable even without a bar: a missing table fails here, once, not in every thread.
    total = client.describe_table(TableName=table)["Table"].get("ItemCount") or None
    scan = functools.partial(
        _parallel_scan,
        client,
        table,
        segments,
        on_page,
        checkpoint=checkpoint,
        projection=projection,
        page_size=page_size,
        count_only=count_only,
    )
    if not progress:
        return scan(on_items=on_items)
    from tqdm import tqdm  # here: the export's stand-in runs where tqdm cannot be imported

    with tqdm(total=total, unit=" items", desc=f"scan {table}", leave=False) as bar:

        def update(items: int) -> None:
            bar.update(items)
            if on_items is not None:
                on_items(items)

        return scan(on_items=update)


def _parallel_scan(
    client: Any,
    table: str,
    segments: int,
    on_page: PageHandler,
    *,
    checkpoint: Checkpoint | None,
    projection: str | None,
    on_items: ItemsRead | None,
    page_size: int | None,
    count_only: bool,
) -> ScanSummary:
    if not 1 <= segments <= 1_000_000:
        raise ValueError(f"segments {segments} must be between 1 and 1,000,000")
    request: dict[str, Any] = {
        "TableName": table,
        "TotalSegments": segments,
        "ReturnConsumedCapacity": "TOTAL",
    }
    if projection and count_only:
        raise ValueError("a count-only scan returns no attributes: drop the projection")
    if projection:
        request["ProjectionExpression"] = projection
    if count_only:
        request["Select"] = "COUNT"
    if page_size:
        request["Limit"] = page_size
    summary = ScanSummary(segments, resumed_items=sum(checkpoint.counts.values()) if checkpoint else 0)
    scan = _Scan(client, request, on_page, checkpoint, summary, on_items)
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=min(segments, 32), thread_name_prefix="scan") as pool:
        try:
            for future in [pool.submit(scan.segment, segment) for segment in range(segments)]:
                future.result()
        except BaseException:
            # Ctrl-C or a failed page: the other segments stop after their current page (each
            # page's key is in the checkpoint) instead of scanning on while the pool waits.
            scan.stop.set()
            raise
    scan.summary.seconds = time.perf_counter() - started
    if checkpoint:
        checkpoint.finish()
    return scan.summary


@dataclass
class _Scan:
    client: Any
    request: dict[str, Any]
    on_page: PageHandler
    checkpoint: Checkpoint | None
    summary: ScanSummary
    on_items: ItemsRead | None
    lock: threading.Lock = field(default_factory=threading.Lock)
    stop: threading.Event = field(default_factory=threading.Event)

    def segment(self, segment: int) -> None:
        try:
            self._segment(segment)
        except BaseException:
            self.stop.set()  # one failed segment stops the others after their current page
            raise

    def _segment(self, segment: int) -> None:
        start_key = self.checkpoint.start_key(segment) if self.checkpoint else None
        if start_key == "done":
            return
        if start_key is not None:
            with self.lock:
                self.summary.resumed_segments += 1
        request = {**self.request, "Segment": segment}
        while not self.stop.is_set():
            if start_key:
                request["ExclusiveStartKey"] = start_key
            page = self.client.scan(**request)
            items = page.get("Items", [])
            count = int(page.get("Count", len(items)))  # a count-only page has a Count, no Items
            self.on_page(segment, items)
            start_key = page.get("LastEvaluatedKey")
            if self.checkpoint:
                self.checkpoint.record(segment, start_key, count)
            self._count(count, page.get("ConsumedCapacity", {}).get("CapacityUnits", 0.0))
            if not start_key:
                return

    def _count(self, items: int, capacity: float) -> None:
        with self.lock:
            self.summary.items += items
            self.summary.pages += 1
            self.summary.consumed_rcu += capacity
        if self.on_items is not None:
            self.on_items(items)
