"""The CLI's parallel scan: `tatami_functions.common.scan` (shared with the export function) with a
progress bar.

`tatami scan`, index backfills and `tatami export --local` read whole tables through this module;
the scan itself, its checkpoint and its summary live in `lambdas/tatami_functions/common/scan.py`.
"""

from __future__ import annotations

from typing import Any

from tqdm import tqdm

from tatami_functions.common.scan import Checkpoint, PageHandler, ScanSummary
from tatami_functions.common.scan import parallel_scan as _parallel_scan

__all__ = ["Checkpoint", "PageHandler", "ScanSummary", "parallel_scan"]


def parallel_scan(
    client: Any, table: str, segments: int, on_page: PageHandler, *, progress: bool = True, **options: Any
) -> ScanSummary:
    """`tatami_functions.common.scan.parallel_scan` with a progress bar over the table's approximate
    item count.

    >>> parallel_scan(client, "Tatami-Places", 4, lambda segment, items: None)  # doctest: +SKIP
    ScanSummary(segments=4, items=25000, ...)
    """
    total = client.describe_table(TableName=table)["Table"].get("ItemCount") or None  # also: it exists
    with tqdm(total=total, unit=" items", desc=f"scan {table}", disable=not progress, leave=False) as bar:
        return _parallel_scan(client, table, segments, on_page, on_items=bar.update, **options)
