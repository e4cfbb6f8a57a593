"""Offline jobs over the whole index: backfill addresses of items written before it existed, and analyze
the index into planner statistics. The CLI (``tatami zindex``) drives them; they share the maintainer's
conditional write, so a backfill racing live writes never clobbers a newer value.
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boto3.dynamodb.types import TypeDeserializer, TypeSerializer

from places import repository, statistics
from places.addressing import live_buckets
from places.maintainer import index_item
from places.settings import IndexSettings

Progress = Callable[[int], None]
_serializer, _deserializer = TypeSerializer(), TypeDeserializer()


@dataclass
class Checkpoint:
    """Per segment: where its scan stopped (DynamoDB JSON of LastEvaluatedKey) or that it finished.

    Saved after every page, atomically, so an interrupted backfill resumes where each segment stood.
    """

    path: Path
    segments: int
    state: dict[str, Any] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def open(cls, path: Path, segments: int, resume: bool) -> Checkpoint:
        if resume and path.exists():
            state = json.loads(path.read_text())
            if state.get("segments") != segments:
                raise ValueError(
                    f"{path} is for {state.get('segments')} segments, not {segments}: use --restart"
                )
            return cls(path, segments, state)
        return cls(path, segments, {"segments": segments, "done": {}, "keys": {}, "outcomes": {}})

    def start_key(self, segment: int) -> dict[str, Any] | None:
        raw = self.state["keys"].get(str(segment))
        return None if raw is None else {k: _deserializer.deserialize(v) for k, v in raw.items()}

    def finished(self, segment: int) -> bool:
        return bool(self.state["done"].get(str(segment)))

    def save(self, segment: int, last_key: dict[str, Any] | None, outcomes: Counter[str]) -> None:
        with self.lock:
            if last_key is None:
                self.state["done"][str(segment)] = True
            else:
                self.state["keys"][str(segment)] = {k: _serializer.serialize(v) for k, v in last_key.items()}
            total = Counter(self.state["outcomes"])
            total.update(outcomes)
            self.state["outcomes"] = dict(total)
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_suffix(".tmp")
            temporary.write_text(json.dumps(self.state, indent=1))
            temporary.replace(self.path)


def _segment(settings: IndexSettings, checkpoint: Checkpoint, segment: int, progress: Progress) -> None:
    start = checkpoint.start_key(segment)
    while not checkpoint.finished(segment):
        page = repository.scan_segment(settings, segment, checkpoint.segments, start)
        outcomes: Counter[str] = Counter(index_item(settings, item).value for item in page.items)
        checkpoint.save(segment, page.last_key, outcomes)
        progress(page.scanned)
        start = page.last_key


def backfill(
    settings: IndexSettings, checkpoint: Checkpoint, progress: Progress = lambda n: None
) -> dict[str, int]:
    """Index every item of the table with a parallel Scan (one thread per segment); returns outcome counts
    by :class:`places.maintainer.Outcome` value (``{"written": 120, "unchanged": 3}``)."""
    with ThreadPoolExecutor(max_workers=checkpoint.segments, thread_name_prefix="backfill") as pool:
        futures = [
            pool.submit(_segment, settings, checkpoint, segment, progress)
            for segment in range(checkpoint.segments)
            if not checkpoint.finished(segment)
        ]
        for future in futures:
            future.result()
    return dict(checkpoint.state["outcomes"])


def analyze(settings: IndexSettings, progress: Progress = lambda n: None) -> dict[str, Any]:
    """Read every address of the GSI (keys only), build the planner statistics and store them."""

    def bucket(number: int) -> list[bytes]:
        found = list(repository.index_addresses(settings, settings.bucket_name(number)))
        progress(len(found))
        return found

    with ThreadPoolExecutor(max_workers=8, thread_name_prefix="analyze") as pool:
        addresses = [a for part in pool.map(bucket, live_buckets(settings)) for a in part]
    density = statistics.build(settings.schema, addresses)
    data = statistics.dumps(density)
    repository.put_statistics(settings, data)
    return {"items": density.items, "depth": density.depth, "cells": len(density.cells), "bytes": len(data)}
