"""A Z plan's address ranges as cells a page can draw: each range cut into aligned blocks of addresses
(a block of 2**k addresses whose low k bits run free is a box: every dimension's low bits run free),
each block decoded by the index's own ``zorder.Schema`` and projected on two of its attributes."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any

from tatami.console.errors import BadParameter
from zindex import IndexedTable, ZIndex

MAX_BLOCKS = 20_000  # decoded per request (about 0.3 s); the rest are counted, not drawn


def cells(
    table: IndexedTable, index: str, ranges: Sequence[Sequence[str]], axes: Sequence[str]
) -> dict[str, Any]:
    """``{"cells": [[x_low, x_high, y_low, y_high], ...], "omitted": n}`` for hex address ranges."""
    z_indexes = {i.name: i for i in table.indexes if isinstance(i, ZIndex)}
    if index not in z_indexes:
        raise BadParameter("index", f"not a Z index of this table; it has {sorted(z_indexes)}")
    if len(axes) != 2 or any(axis not in z_indexes[index].attributes for axis in axes):
        raise BadParameter("axes", f"two of {list(z_indexes[index].attributes)}, got {list(axes)}")
    schema = table.schema(index)
    found: dict[tuple[Any, ...], None] = {}
    decoded = omitted = 0
    for first, last in _parse(ranges):
        for low, high in blocks(first, last):
            if decoded >= MAX_BLOCKS:
                omitted += 1
                continue
            decoded += 1
            lower, upper = (
                schema.decode(low.to_bytes(schema.nbytes)),
                schema.decode(high.to_bytes(schema.nbytes)),
            )
            found[tuple(_plain(value) for axis in axes for value in (lower[axis], upper[axis]))] = None
    return {"cells": [list(cell) for cell in found], "omitted": omitted}


def blocks(first: int, last: int) -> Iterator[tuple[int, int]]:
    """The aligned blocks (power-of-two sized, starting at a multiple of their size) covering first..last.

    >>> list(blocks(3, 12))
    [(3, 3), (4, 7), (8, 11), (12, 12)]
    """
    while first <= last:
        size = first & -first if first else 1 << last.bit_length()
        while first + size - 1 > last:
            size >>= 1
        yield first, first + size - 1
        first += size


def _parse(ranges: Sequence[Sequence[str]]) -> list[tuple[int, int]]:
    try:
        parsed = [(int(first, 16), int(last, 16)) for first, last in ranges]
    except (TypeError, ValueError):
        raise BadParameter("ranges", "must be pairs of hex addresses, as EXPLAIN lists them") from None
    if any(first > last for first, last in parsed):
        raise BadParameter("ranges", "each range's first address must not exceed its last")
    return parsed


def _plain(value: Any) -> Any:
    """Instants as epoch milliseconds (a chart's axis), everything else as it decodes."""
    return round(value.timestamp() * 1000) if isinstance(value, datetime) else value
