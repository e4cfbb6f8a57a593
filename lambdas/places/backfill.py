"""Offline jobs over the whole index: backfill addresses of items written before it existed, and analyze
the index into planner statistics. The CLI (``tatami zindex``) drives them: the backfill is a
``tatami.scan.parallel_scan`` whose pages go through :func:`index_page`, the maintainer's own
conditional write, so a backfill racing live writes never clobbers a newer value.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from places import repository, statistics
from places.addressing import live_buckets
from places.maintainer import image_of, index_item
from places.settings import IndexSettings

Progress = Callable[[int], None]


def index_page(settings: IndexSettings, items: list[dict[str, Any]]) -> Counter[str]:
    """Index one Scan page (items as low-level attribute values); counts by ``Outcome`` value."""
    return Counter(index_item(settings, image_of(item)).value for item in items)


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
