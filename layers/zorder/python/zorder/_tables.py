"""Lookup tables behind :mod:`zorder.bits`: 8 bits of a value <-> their scattered address bits.

Small layouts keep tables of absolute address bits (one lookup and one OR per byte); large ones store
entries relative to the chunk's lowest position plus a shift, so memory stays linear in the address
width instead of quadratic.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["Chunk", "Unchunk", "gather_tables", "spread_tables"]

# One byte of one dimension: (shift of the byte in the value, its table, shift of the table's entries;
# the last is 0 for absolute tables). ``spread_tables(...)[d]`` lists dimension d's bytes, top first.
Chunk = tuple[int, list[int], int]
# One byte of the address, for one dimension: (shift in the address, dimension, table, shift of entries).
Unchunk = tuple[int, int, list[int], int]


def _table(targets: Sequence[int], base: int) -> list[int]:
    """Lookup table: bit ``i`` of the index sets bit ``targets[i] - base`` of the entry (0 = unused)."""
    table = [0] * (1 << len(targets))
    for index in range(1, len(table)):
        low = index & -index
        target = targets[low.bit_length() - 1]
        table[index] = table[index ^ low] | (0 if target < 0 else 1 << (target - base))
    return table


def spread_tables(positions: Sequence[Sequence[int]], *, absolute: bool) -> tuple[tuple[Chunk, ...], ...]:
    """Per dimension, per byte of its value: the table scattering that byte to its address positions."""
    plans = []
    for ps in positions:
        plan = []
        for shift in range((len(ps) - 1) // 8 * 8, -1, -8):  # top chunk first
            targets = ps[shift : shift + 8]
            base = 0 if absolute else targets[0]
            plan.append((shift, _table(targets, base), base))
        plans.append(tuple(plan))
    return tuple(plans)


def gather_tables(total_bits: int, dim_at: Sequence[int], bit_at: Sequence[int]) -> tuple[Unchunk, ...]:
    """Per byte of the address and dimension present in it: the table gathering that dimension's bits."""
    out = []
    for shift in range(0, total_bits, 8):
        span = range(shift, min(shift + 8, total_bits))
        for d in sorted({dim_at[p] for p in span}):
            k0 = min(bit_at[p] for p in span if dim_at[p] == d)
            targets = [bit_at[p] if dim_at[p] == d else -1 for p in span]
            out.append((shift, d, _table(targets, k0), k0))
    return tuple(out)
