"""What one Query or Scan page walks: the entries of a key range (or a Scan segment) in order, base
rows a chunk at a time, each extra (an item written since the load) at its place among them.

A stream yields ``("rows", array)`` for a chunk of base rows and ``("item", dict)`` for one extra.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np

from tatami.dynamodb_model.conditions import holds
from tatami.dynamodb_model.expressions import Node
from tatami.dynamodb_model.hashing import key_hash, segment_of
from tatami.dynamodb_model.indexes import SortedEntries, natural_key
from tatami.dynamodb_model.table import Table

__all__ = ["Chunk", "index_scan", "query", "table_scan"]

CHUNK = 4096  # base entries read at once (a 1 MB page holds about ten thousand)

Chunk = tuple[str, Any]


def _merged(
    table: Table,
    rows_at: Callable[[int, int], np.ndarray],
    start: int,
    end: int,
    extras: list[tuple[int, dict[str, Any]]],
    keep: Callable[[np.ndarray], np.ndarray] | None = None,
) -> Iterator[Chunk]:
    """Positions ``start..end`` of an order (``rows_at(a, b)``: the rows at positions ``a..b``), the
    extras (the position each sorts before, the item) merged in, and only the rows ``keep`` keeps."""
    at = start
    for position, item in [*extras, (end, None)]:
        while at < min(position, end):
            stop = min(position, end, at + CHUNK)
            rows = table.live(rows_at(at, stop).astype(np.int64))
            if keep is not None:
                rows = rows[keep(rows)]
            if len(rows):
                yield "rows", rows
            at = stop
        if item is not None:
            yield "item", item


def query(
    table: Table,
    index: SortedEntries,
    hash_value: Any,
    range_keys: tuple[Any, Any],
    range_condition: Node | None,
    after: Mapping[str, Any] | None,
) -> Iterator[Chunk]:
    """The entries of one partition key whose sort key lies within ``range_keys`` (order keys, None:
    open; ``range_condition``: the same bound as an expression, for the extras), after ``after``."""
    first, last = index.block(hash_value)
    start, end = index.range_in(first, last, *range_keys)
    resume = None if after is None else index.composite_of(after)
    if resume is not None:
        start = max(start, index.after(first, last, resume))
    extras = []
    for composite, key in index.extras.get(natural_key(hash_value), []):
        item = table.overlay[key]
        if (resume is None or composite > resume) and (
            range_condition is None or holds(range_condition, item)
        ):
            extras.append((index.insertion(first, last, composite), item))
    yield from _merged(table, lambda a, b: index.order[a:b], start, end, extras)


def _in_segment(table: Table, segment: tuple[int, int]) -> Callable[[np.ndarray], np.ndarray]:
    """Which base rows belong to a Scan segment: by their key's hash, or every n-th row."""
    number, of = segment
    if not table.semantics.hash_order:
        return lambda rows: rows % of == number
    return lambda rows: np.array([segment_of(h, of) == number for h in table.tie_keys(rows).tolist()], bool)


def index_scan(
    table: Table, index: SortedEntries, segment: tuple[int, int], after: Mapping[str, Any] | None
) -> Iterator[Chunk]:
    """Segment ``segment[0]`` of ``segment[1]`` of a GSI, in key order, after ``after``."""
    count = len(index.order)
    resume = None if after is None else index.composite_of(after)
    start = 0 if resume is None else index.after(0, count, resume)
    extras = []
    for partition in sorted(index.extras):
        for composite, key in index.extras[partition]:
            if (resume is None or composite > resume) and segment_of(key_hash(key[0]), segment[1]) == segment[
                0
            ]:
                extras.append((index.insertion(0, count, composite), composite, table.overlay[key]))
    extras.sort(key=lambda e: e[:2])
    merged = [(position, item) for position, _, item in extras]
    yield from _merged(
        table, lambda a, b: index.order[a:b], start, count, merged, _in_segment(table, segment)
    )


def table_scan(table: Table, segment: tuple[int, int], after: Mapping[str, Any] | None) -> Iterator[Chunk]:
    """Segment ``segment[0]`` of ``segment[1]`` of the table, after ``after``: in DynamoDB Local's order
    (by key hash, segments hash ranges, written items among the base rows), or base rows in row
    order (every n-th row) then the written items by key hash."""
    number, of = segment
    written = sorted((key_hash(k[0]), k) for k in table.overlay if segment_of(key_hash(k[0]), of) == number)
    resume = None if after is None else table.key_of(after)
    if table.semantics.hash_order:
        order, hashes = table.scan_order()
        first, last = (int(np.searchsorted(hashes, -(-(n << 64) // of))) for n in (number, number + 1))
        if resume is not None:
            first = max(first, int(np.searchsorted(hashes, key_hash(resume[0]), side="right")))
            written = [w for w in written if w > (key_hash(resume[0]), resume)]
        extras = [(int(np.searchsorted(hashes, h)), table.overlay[k]) for h, k in written]
        yield from _merged(table, lambda a, b: order[a:b], first, last, extras)
        return
    start = 0
    if resume is not None:
        row = table.row_of(resume)
        start = table.rows if row is None else row + 1
        written = [w for w in written if row is not None or w > (key_hash(resume[0]), resume)]
    extras = [(table.rows, table.overlay[k]) for _, k in written]
    yield from _merged(
        table, lambda a, b: np.arange(a, b), start, table.rows, extras, _in_segment(table, segment)
    )
