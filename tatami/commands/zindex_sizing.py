"""`tatami zindex advise --writes-per-second W [--items N]`: each index sized for a table of N items
written W times a second, by the capacity model's partition limits (tatami.capacity.model.limits), and
what each costs a month to store and keep (tatami.capacity.model.prices).

A Z index's bucket is one partition key: its busiest bucket takes its share of the writes, and must stay
within what one partition takes (1,000 write units a second, planned at the capacity model's 80%); the
advice is the fewest bucket bits that keep it there, since every bucket a box crosses is one more Query.
A sorted index's shards share its writes evenly. The rule is the advisor's (zindex.advisor).
"""

from __future__ import annotations

from collections.abc import Callable

from tatami.capacity.model.limits import Limits
from tatami.capacity.model.prices import Prices
from tatami.zindex_growth.costs import STORAGE_OVERHEAD_BYTES
from zindex import IndexedTable, SortedIndex, ZIndex
from zindex.advisor import ENTRY_WRITES_PER_ITEM_WRITE, Buckets, bucket_bits, bucket_options, shards_needed
from zindex.sizes import write_units
from zindex.statistics import IndexStats, Statistics

__all__ = ["size_indexes"]

GB = 1024**3


def _bucket_rows(options: list[Buckets], declared: int, chosen: int) -> list[Buckets]:
    """The options worth showing: around the advice, and the declared count."""
    wanted = {declared, *range(max(0, chosen - 2), chosen + 3)}
    return [o for o in options if o.bits in wanted]


def _monthly(stats: IndexStats, items: int, writes: float, prices: Prices) -> str:
    stored = items * (stats.entry_bytes + STORAGE_OVERHEAD_BYTES) / GB
    units = writes * ENTRY_WRITES_PER_ITEM_WRITE * write_units(stats.entry_bytes)
    storage = stored * prices.storage_gb_month  # an index's share: the free tier is the table's
    keeping = prices.on_demand_monthly(write_units_per_second=units, read_units_per_second=0)
    return f"{stored:,.1f} GB (${storage:,.0f}/month), writes at most ${keeping:,.0f}/month on demand"


def _z(table: IndexedTable, index: ZIndex, stats: IndexStats, writes: float, partition: float) -> list[str]:
    options = bucket_options(index, table, stats, writes, partition)
    chosen = bucket_bits(options)
    lines = [
        f"  {index.name}: {chosen.bits} bucket bits ({index.bucket_bits} declared)"
        + ("" if chosen.fits else f": even {chosen.bits} bits leave a bucket past {partition:,.0f} WCU/s")
    ]
    for option in _bucket_rows(options, index.bucket_bits, chosen.bits):
        mark = "*" if option is chosen else " "
        lines.append(
            f"   {mark} {option.bits:>2} bits: busiest bucket {option.busiest_share:6.1%} of the writes, "
            f"{option.busiest_write_units:>9,.0f} WCU/s {'fits' if option.fits else 'hot partition'}"
        )
    return lines


def size_indexes(
    name: str, table: IndexedTable, stats: Statistics, items: int, writes: float, echo: Callable[[str], None]
) -> None:
    """Print each index's size for ``items`` items written ``writes`` times a second."""
    limits, prices = Limits(), Prices()
    partition = limits.partition_write_units * limits.heat_utilization
    scaled = stats.scaled(items / stats.items) if stats.items else stats
    echo(
        f"SIZE {name}: {items:,} items, {writes:,.0f} item writes/s; one partition takes "
        f"{limits.partition_write_units:,.0f} WCU/s, planned at {limits.heat_utilization:.0%} "
        f"({partition:,.0f}); an item write is up to {ENTRY_WRITES_PER_ITEM_WRITE} writes of an entry"
    )
    for index in table.indexes:
        own = scaled.indexes[index.name]
        if isinstance(index, ZIndex):
            lines = _z(table, index, own, writes, partition)
        elif isinstance(index, SortedIndex):
            needed = shards_needed(own, writes, partition)
            lines = [f"  {index.name}: {needed} shards ({index.shards} declared)"]
        else:
            lines = [f"  {index.name}: no sizing rule for {index.kind} indexes"]
        echo("\n".join([*lines, f"    {_monthly(own, items, writes, prices)}"]))
