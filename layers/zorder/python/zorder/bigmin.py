"""Jumping back into a box: BIGMIN and LITMAX (Tropf & Herzog 1981), for N dims and mixed widths.

A Z-ordered scan over ``[zmin, zmax]`` leaves the box at its seams. Given an address ``z`` outside the
box, BIGMIN is the smallest address in the box above ``z`` and LITMAX the largest below it, so a scan can
skip straight there instead of reading everything in between.

The algorithm walks the address from its most significant bit with the decision tables of the paper,
reading three bits at each position ``p`` (of ``z``, ``min`` and ``max``; ``min``/``max`` start as the box's
corner addresses and are narrowed as the walk descends). ``load1000``/``load0111`` set bit ``p`` to 1/0 and
the *same dimension's* lower bits to 0/1; :attr:`Interleaver.below` holds those lower positions, which
is all it takes to generalise from the paper's 2-D, equal-width layout. Positions where the three
bits agree change nothing, so the walk jumps from one disagreeing position to the next.
"""

from __future__ import annotations

from zorder.bits import Interleaver
from zorder.box import Box

__all__ = ["bigmin", "litmax", "next_in_box", "prev_in_box"]


def bigmin(z: int, zmin: int, zmax: int, layout: Interleaver) -> int | None:
    """Smallest address of a box above ``z``, for ``z`` outside the box (Tropf & Herzog's BIGMIN).

    Parameters
    ----------
    z : int
        An address outside the box.
    zmin, zmax : int
        The box's corner addresses (interleaved lower and upper keys).
    layout : Interleaver
        The schema's bit layout.

    Returns
    -------
    int or None
        The jump target, or None when no address of the box is above ``z``.

    Examples
    --------
    The example of Tropf & Herzog (also in Wikipedia's "Z-order curve"): box x=2..3, y=2..6 on an
    8x8 grid (y first), scan at 19, jump to 36.

    >>> from zorder.bits import Interleaver
    >>> bigmin(19, 12, 45, Interleaver((3, 3)))
    36
    """
    found = None
    below = layout.below
    diff = (z ^ zmin) | (z ^ zmax)
    while diff:
        p = diff.bit_length() - 1
        bit = 1 << p
        if not z & bit:
            if zmin & bit:  # 0 1 1: the whole box is above z here
                return zmin
            found = (zmin | bit) & ~below[p]  # 0 0 1: candidate = load1000(min); go down the low half
            zmax = (zmax & ~bit) | below[p]
        elif not zmax & bit:  # 1 0 0: the box is below z here; the last candidate stands
            return found
        else:  # 1 0 1: continue in the high half
            zmin = (zmin | bit) & ~below[p]
        diff = ((z ^ zmin) | (z ^ zmax)) & (bit - 1)
    return found


def litmax(z: int, zmin: int, zmax: int, layout: Interleaver) -> int | None:
    """Largest address of the box ``[zmin, zmax]`` below ``z``, for ``z`` outside it (mirror of BIGMIN).

    >>> from zorder.bits import Interleaver
    >>> litmax(19, 12, 45, Interleaver((3, 3)))
    15
    """
    found = None
    below = layout.below
    diff = (z ^ zmin) | (z ^ zmax)
    while diff:
        p = diff.bit_length() - 1
        bit = 1 << p
        if z & bit:
            if not zmax & bit:  # 1 0 0: the whole box is below z here
                return zmax
            found = (zmax & ~bit) | below[p]  # 1 0 1: candidate = load0111(max); go up the high half
            zmin = (zmin | bit) & ~below[p]
        elif zmin & bit:  # 0 1 1: the box is above z here; the last candidate stands
            return found
        else:  # 0 0 1: continue in the low half
            zmax = (zmax & ~bit) | below[p]
        diff = ((z ^ zmin) | (z ^ zmax)) & (bit - 1)
    return found


def next_in_box(z: int, box: Box) -> int | None:
    """Smallest address ``>= z`` inside ``box``, or ``None`` when there is none.

    Parameters
    ----------
    z : int
        Any address of the box's layout.
    box : Box
        The query box.

    Returns
    -------
    int or None
        ``z`` itself when inside the box, else its BIGMIN; None past the box's last address.

    Examples
    --------
    >>> from zorder.dimension import Dimension
    >>> from zorder.encodings import UInt
    >>> box = Box((Dimension("y", UInt(3)), Dimension("x", UInt(3))), (2, 2), (6, 3))
    >>> next_in_box(19, box), next_in_box(36, box), next_in_box(46, box)
    (36, 36, None)
    """
    layout, zmin, zmax = box.layout, box.zmin, box.zmax
    if z <= zmin:
        return zmin
    if z > zmax:
        return None
    if box.contains_point(layout.deinterleave(z)):
        return z
    return bigmin(z, zmin, zmax, layout)


def prev_in_box(z: int, box: Box) -> int | None:
    """Largest address ``<= z`` inside ``box``, or ``None`` (for scans in descending order).

    >>> from zorder.dimension import Dimension
    >>> from zorder.encodings import UInt
    >>> box = Box((Dimension("y", UInt(3)), Dimension("x", UInt(3))), (2, 2), (6, 3))
    >>> prev_in_box(19, box), prev_in_box(11, box)
    (15, None)
    """
    layout, zmin, zmax = box.layout, box.zmin, box.zmax
    if z >= zmax:
        return zmax
    if z < zmin:
        return None
    if box.contains_point(layout.deinterleave(z)):
        return z
    return litmax(z, zmin, zmax, layout)
