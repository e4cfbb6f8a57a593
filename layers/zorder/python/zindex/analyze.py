"""Offline jobs over a whole table: build and store the statistics, and index items by a backfill.

Both read the table with a parallel Scan. The CLI (``tatami zindex``) drives them with its own
checkpointed scan and progress bar, handing pages to :func:`index_page` and items to :func:`store`;
:func:`scan_items` is the plain parallel Scan for everyone else (the sample loader, benchmarks).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from zindex.dynamodb import IndexRepository
from zindex.dynamojson import to_item
from zindex.errors import UnencodableError
from zindex.maintainer import IndexOutcome, index_item
from zindex.statistics import Statistics, build, dumps

__all__ = ["analyze", "index_page", "scan_items"]  # public (docs/library.md); store is analyze's step

AnalyzeProgress = Callable[[int], None]


def index_page(repository: IndexRepository, items: Iterable[Mapping[str, Any]]) -> Counter[str]:
    """Index one Scan page (items as DynamoDB JSON); counts by outcome."""
    found: Counter[str] = Counter()
    for raw in items:
        try:
            found[index_item(repository, to_item(raw)).value] += 1
        except UnencodableError:
            found[IndexOutcome.UNENCODABLE.value] += 1
    return found


def scan_items(
    repository: IndexRepository, segments: int = 4, progress: AnalyzeProgress = lambda n: None
) -> Iterator[dict[str, Any]]:
    """Every item of the table (plain Python values), read by a parallel Scan of ``segments``."""

    def segment(number: int) -> list[dict[str, Any]]:
        found, start = [], None
        while True:
            page = repository.scan(None, number, segments, None, None, start)
            found.extend(page.items)
            progress(page.scanned)
            start = page.last_key
            if start is None:
                return found

    with ThreadPoolExecutor(max_workers=segments, thread_name_prefix="zindex-scan") as pool:
        for part in pool.map(segment, range(segments)):
            yield from part


def store(repository: IndexRepository, statistics: Statistics) -> dict[str, Any]:
    """Write each index's statistics item; returns a summary for people."""
    sizes = {}
    for index in repository.table.indexes:
        data = dumps(repository.table, statistics, index.name)
        repository.put_statistics(index.name, data)
        sizes[index.name] = len(data)
    entries = {name: s.keys.items for name, s in statistics.indexes.items()}
    return {"items": statistics.items, "entries": entries, "bytes": sizes}


def analyze(
    repository: IndexRepository, segments: int = 4, progress: AnalyzeProgress = lambda n: None
) -> dict[str, Any]:
    """Scan the table, build the statistics of every index and store them."""
    return store(repository, build(repository.table, scan_items(repository, segments, progress)))
