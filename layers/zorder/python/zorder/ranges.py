"""Decomposing a box into runs of consecutive Z addresses, exactly or within a budget of ranges.

A *piece* is a sub-box of the query box together with its corner addresses ``zlo``/``zhi``; its
*waste* is ``zhi - zlo + 1 - volume``, the addresses of ``[zlo, zhi]`` outside the box. A piece with no
waste is one run. Otherwise it is split at the highest bit where ``zlo`` and ``zhi`` differ (the split of
the smallest aligned Z block holding the piece): its dimension's interval is cut at that bit, the low
half keeps ``zlo`` and gets ``load0111(zhi)``, the high half gets ``load1000(zlo)`` and keeps ``zhi``, and
the addresses between the halves form one *gap*. Only corners are computed; addresses are never
enumerated, so the cost follows the number of ranges, not the box's volume.

Budget: ``waste(parent) = waste(low) + gap + waste(high)``, so every gap still hidden inside a piece is
at most its waste. Splitting the most wasteful piece first and stopping once no piece's waste exceeds
the smallest of the ``max_ranges - 1`` largest gaps found gives the same cost as decomposing exactly
and then merging the cheapest gaps first (fewest extra addresses read), without the full
decomposition, which can hold billions of runs for a thin box. (Among equal gaps, which ones stay
open is arbitrary; see ``_SPLITS_PER_RANGE``.)
"""

from __future__ import annotations

import heapq
from itertools import count

from zorder.bits import Interleaver
from zorder.box import Box

__all__ = ["ranges"]

_Piece = tuple[int, int, tuple[int, ...], tuple[int, ...], int]  # zlo, zhi, lower keys, upper keys, volume

# A safety net: past ``max(64, total_bits)`` splits per allowed range, stop refining and return the
# (still covering, merely less tight) ranges found so far. It never cuts short an exact answer that
# fits the budget (a piece with waste hides a gap, so each of the at most ``keep`` gaps is found within
# ``total_bits`` splits); it bounds boxes whose many gaps are all the same size, where the stopping rule
# cannot tell which of the equal gaps to keep (e.g. x <= 2**16 - 2 over every y: 65,536 gaps of one).
_SPLITS_PER_RANGE = 64


def _waste(piece: _Piece) -> int:
    return piece[1] - piece[0] + 1 - piece[4]


def _split(piece: _Piece, layout: Interleaver) -> tuple[_Piece, _Piece]:
    zlo, zhi, lo, hi, volume = piece
    p = (zlo ^ zhi).bit_length() - 1
    d, bit, below = layout.dim_at[p], 1 << p, layout.below[p]
    cut = hi[d] >> layout.bit_at[p] << layout.bit_at[p]  # first key of the high half in dimension d
    low_volume = volume // (hi[d] - lo[d] + 1) * (cut - lo[d])
    low = (zlo, (zhi & ~bit) | below, lo, (*hi[:d], cut - 1, *hi[d + 1 :]), low_volume)
    high = ((zlo | bit) & ~below, zhi, (*lo[:d], cut, *lo[d + 1 :]), hi, volume - low_volume)
    return low, high


def _exact(root: _Piece, layout: Interleaver) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    stack = [root]
    while stack:  # depth first, low half first: runs come out in address order
        piece = stack.pop()
        if _waste(piece):
            low, high = _split(piece, layout)
            stack += (high, low)
        elif out and out[-1][1] + 1 == piece[0]:  # touching the previous run: extend it
            out[-1] = (out[-1][0], piece[1])
        else:
            out.append((piece[0], piece[1]))
    return out


def _refine(root: _Piece, layout: Interleaver, keep: int) -> list[_Piece]:
    """Split the most wasteful pieces until no hidden gap could rank among the ``keep`` largest."""
    done: list[_Piece] = []
    tie = count()  # heap tie-breaker: pieces themselves need not be compared
    todo: list[tuple[int, int, _Piece]] = [(-_waste(root), next(tie), root)]
    largest: list[int] = []  # min-heap of the ``keep`` largest gaps found so far
    for _ in range(max(_SPLITS_PER_RANGE, layout.total_bits) * (keep + 1)):
        if not todo or -todo[0][0] <= (largest[0] if len(largest) == keep else 0):
            break
        low, high = _split(heapq.heappop(todo)[2], layout)
        heapq.heappush(largest, high[0] - low[1] - 1)
        if len(largest) > keep:
            heapq.heappop(largest)
        for child in (low, high):
            if _waste(child):
                heapq.heappush(todo, (-_waste(child), next(tie), child))
            else:
                done.append(child)
    return sorted(done + [item[2] for item in todo])


def _merge(pieces: list[_Piece], keep: int) -> list[tuple[int, int]]:
    """Keep the ``keep`` largest gaps between consecutive pieces; merge across all the others."""
    gaps = ((pieces[i + 1][0] - pieces[i][1] - 1, i) for i in range(len(pieces) - 1))
    cuts = sorted(i for gap, i in heapq.nlargest(keep, gaps) if gap > 0)
    out, start = [], pieces[0][0]
    for i in cuts:
        out.append((start, pieces[i][1]))
        start = pieces[i + 1][0]
    out.append((start, pieces[-1][1]))
    return out


def ranges(box: Box, max_ranges: int | None) -> list[tuple[int, int]]:
    """Sorted, disjoint, inclusive address ranges covering every address of ``box``.

    Parameters
    ----------
    box : Box
        The query box.
    max_ranges : int or None
        None: exact, the maximal runs of consecutive addresses in the box. An int: at most that many
        ranges, exact when the budget allows, otherwise with the cheapest gaps merged first (the
        fewest extra addresses read).

    Returns
    -------
    list[tuple[int, int]]
        ``(lo, hi)`` pairs, inclusive, ascending, never touching each other.

    Raises
    ------
    ValueError
        ``max_ranges`` is not a positive int or None.

    Examples
    --------
    >>> from zorder.dimension import Dimension
    >>> from zorder.encodings import UInt
    >>> box = Box((Dimension("y", UInt(3)), Dimension("x", UInt(3))), (2, 2), (6, 3))
    >>> ranges(box, None)
    [(12, 15), (36, 39), (44, 45)]
    >>> ranges(box, 2)
    [(12, 15), (36, 45)]
    """
    if max_ranges is not None and (type(max_ranges) is not int or max_ranges < 1):
        raise ValueError(f"max_ranges must be a positive int or None (exact), got {max_ranges!r}")
    layout = box.layout
    root: _Piece = (box.zmin, box.zmax, box.lower, box.upper, box.volume)
    if max_ranges is None:
        return _exact(root, layout)
    if max_ranges == 1:
        return [(root[0], root[1])]
    return _merge(_refine(root, layout, max_ranges - 1), max_ranges - 1)
