"""One Query or Scan page: entries read in order until the Limit, or until 1 MB has been read (the entry
that reaches it included), the filter applied to what was read, and the read units those entries cost.

Read units: half a unit per 4 KB of the entries read, summed over the page and rounded up (eventually
consistent; twice that when consistent), whatever the filter kept. A page stopped by its Limit or by
1 MB returns the last entry it read as ``LastEvaluatedKey``, even when nothing follows (DynamoDB does
too: the next page is then empty).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tatami.dynamodb_model.conditions import holds, row_mask
from tatami.dynamodb_model.expressions import Node
from tatami.dynamodb_model.streams import Chunk
from tatami.dynamodb_model.table import Table
from zindex.dynamojson import to_wire_item
from zindex.plan import MAX_PAGE_BYTES
from zindex.sizes import item_size, read_units

__all__ = ["Page", "PageSource", "read_page"]


@dataclass(frozen=True)
class PageSource:
    """What a page reads: ``index`` (None: the table), the attributes its entries hold (None: all), the
    attributes of its LastEvaluatedKey, and whether its read units (``units_of``) and its 1 MB
    (``page_of``) count its entries or their whole items (see :mod:`tatami.dynamodb_model.semantics`)."""

    table: Table
    index: str | None
    names: Collection[str] | None
    key_names: tuple[str, ...]
    units_of: str = "entry"
    page_of: str = "entry"

    def _bytes(self, rows: np.ndarray, of: str) -> np.ndarray:
        whole = self.index is None or of == "item"
        source = self.table.item_bytes if whole else self.table.entry_bytes[str(self.index)]
        return np.asarray(source[rows], dtype=np.int64)

    def unit_bytes(self, rows: np.ndarray) -> np.ndarray:
        return self._bytes(rows, self.units_of)

    def page_bytes(self, rows: np.ndarray) -> np.ndarray:
        return self._bytes(rows, self.page_of)

    def item_bytes(self, item: dict[str, Any], of: str) -> int:
        return item_size(item if self.index is None or of == "item" else self.entry(item))

    def entry(self, item: dict[str, Any]) -> dict[str, Any]:
        return item if self.names is None else {n: v for n, v in item.items() if n in self.names}


@dataclass
class Page:
    items: list[dict[str, Any]] = field(default_factory=list)  # as the client returns them
    scanned: int = 0
    read_bytes: int = 0
    last: dict[str, Any] | None = None  # the last entry read, when the page stopped before the end
    _page_bytes: int = 0

    def read_units(self, empty: float, consistent: bool = False) -> float:
        units = read_units(1, self.read_bytes) if self.read_bytes else empty
        return units * (2 if consistent else 1)


def _rows(page: Page, source: PageSource, rows: np.ndarray, limit: int | None, search: Node | None) -> bool:
    """Read a chunk of base rows into the page; True when the page is full."""
    if limit is not None:
        rows = rows[: limit - page.scanned]
    cumulative = np.cumsum(source.page_bytes(rows)) + page._page_bytes
    over = np.flatnonzero(cumulative >= MAX_PAGE_BYTES)
    full = bool(len(over))
    if full:
        rows = rows[: over[0] + 1]
    kept = rows if search is None else rows[row_mask(search, source.table.columns, rows, source.names)]
    page.items += source.table.base_items(kept, source.names, wire=True)
    page.scanned += len(rows)
    page.read_bytes += int(source.unit_bytes(rows).sum())
    page._page_bytes = int(cumulative[len(rows) - 1]) if len(rows) else page._page_bytes
    if len(rows):
        page.last = source.table.base_items(rows[-1:], source.key_names)[0]
    return full or (limit is not None and page.scanned >= limit)


def _item(page: Page, source: PageSource, item: dict[str, Any], search: Node | None) -> bool:
    """Read one extra into the page; True when the page is full."""
    entry = source.entry(item)
    if search is None or holds(search, entry):
        page.items.append(to_wire_item(entry))
    page.scanned += 1
    page.read_bytes += source.item_bytes(item, source.units_of)
    page._page_bytes += source.item_bytes(item, source.page_of)
    page.last = {n: item[n] for n in source.key_names}
    return page._page_bytes >= MAX_PAGE_BYTES


def read_page(source: PageSource, stream: Iterator[Chunk], limit: int | None, search: Node | None) -> Page:
    """Read ``stream`` as one page (``limit``: DynamoDB's Limit, entries read; ``search``: the filter)."""
    page = Page()
    for kind, payload in stream:
        full = (
            _rows(page, source, payload, limit, search)
            if kind == "rows"
            else _item(page, source, payload, search)
        )
        if full or (limit is not None and page.scanned >= limit):
            return page
    page.last = None  # the stream ended: nothing is left to read
    return page
