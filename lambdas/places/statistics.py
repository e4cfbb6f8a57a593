"""Planner statistics: a prefix histogram of the index's addresses plus a quantile sketch per dimension.

Built by ``tatami zindex analyze`` (and at the end of a backfill or a sample load) from the addresses in
the GSI, stored as one item of the table, read by the search function once per execution environment.
Statistics only steer the planner: a stale or missing item never changes a result, only its cost.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterable
from typing import Any

from places.density import Density, Marginal
from places.exceptions import StatisticsError
from zorder import Schema

FORMAT = "places.zindex-statistics/1"
MAX_CELLS = 65_536  # histogram cells kept: ~60 KB compressed for 235,000 places, inside one 400 KB item
QUANTILES = 64
MAX_DEPTH = 36  # below ~12 levels the marginals estimate as well, and the prefix tree stays shallow


def _depth(addresses: list[int], total_bits: int, max_cells: int) -> int:
    """The deepest prefix length whose histogram has at most ``max_cells`` non-empty cells."""
    lo, hi = 0, min(total_bits, MAX_DEPTH)
    while lo < hi:  # the number of distinct prefixes grows with the length: binary search
        mid = (lo + hi + 1) // 2
        if len({a >> (total_bits - mid) for a in addresses}) <= max_cells:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _knots(keys: list[int], bits: int, quantiles: int) -> tuple[int, ...]:
    keys.sort()
    n = len(keys)
    inner = [keys[min(n - 1, i * n // quantiles)] for i in range(quantiles)]
    return (*inner, min(keys[-1] + 1, 1 << bits))


def build(schema: Schema, addresses: Iterable[bytes], max_cells: int = MAX_CELLS) -> Density:
    """Statistics of an index from its addresses (``bytes`` as stored in the GSI).

    >>> from zorder import Schema, UInt
    >>> schema = Schema.of(a=UInt(8), b=UInt(8))
    >>> d = build(schema, [schema.encode({"a": a, "b": 7}) for a in range(100)])
    >>> d.items, round(d.box((0, 0), (49, 255)))
    (100, 50)
    """
    ints = [int.from_bytes(a) for a in addresses]
    if not ints:
        return Density.uniform(schema, items=0)
    total = schema.bits
    depth = _depth(ints, total, max_cells)
    cells: dict[int, int] = {}
    for a in ints:
        cells[a >> (total - depth)] = cells.get(a >> (total - depth), 0) + 1
    columns: list[list[int]] = [[] for _ in schema.dimensions]
    for a in ints:
        for column, key in zip(columns, schema.layout.deinterleave(a), strict=True):
            column.append(key)
    marginals = tuple(
        Marginal(_knots(column, d.bits, QUANTILES))
        for column, d in zip(columns, schema.dimensions, strict=True)
    )
    return Density(schema, depth, cells, marginals, len(ints))


def dumps(density: Density) -> bytes:
    """Compact bytes for the statistics item (prefixes delta-encoded, zlib-compressed JSON)."""
    prefixes = sorted(density.cells)
    deltas = [b - a for a, b in zip([0, *prefixes], prefixes, strict=False)]
    document: dict[str, Any] = {
        "format": FORMAT,
        "schema": json.loads(density.schema.to_json()),
        "items": density.items,
        "depth": density.depth,
        "prefix_deltas": deltas,
        "counts": [density.cells[p] for p in prefixes],
        "quantiles": [list(m.knots) for m in density.marginals],
    }
    return zlib.compress(json.dumps(document, separators=(",", ":")).encode(), 9)


def loads(data: bytes, schema: Schema) -> Density:
    """Inverse of :func:`dumps`; statistics built for another schema are refused."""
    try:
        document = json.loads(zlib.decompress(data))
        if document.get("format") != FORMAT:
            raise StatisticsError(f"statistics format {document.get('format')!r}, expected {FORMAT!r}")
        if Schema.from_json(json.dumps(document["schema"])) != schema:
            raise StatisticsError("statistics were built for another schema; run `tatami zindex analyze`")
        prefixes, total = [], 0
        for delta in document["prefix_deltas"]:
            total += delta
            prefixes.append(total)
        cells = dict(zip(prefixes, document["counts"], strict=True))
        marginals = tuple(Marginal(tuple(knots)) for knots in document["quantiles"])
        return Density(schema, int(document["depth"]), cells, marginals, int(document["items"]))
    except (zlib.error, ValueError, KeyError, TypeError) as exc:
        raise StatisticsError(f"unreadable statistics: {exc}") from exc
