"""The Orders and Customers tables of seed 002, declared once: the repository queries by them, the
construct builds them, and the Z-index engine indexes Orders as `ORDERS_ZINDEX` declares.

Every key attribute is a string: the keys are ids and ISO-8601 timestamps, and the composite keys
(`Status#OrderDate`, `Status#n`) only work as strings.
"""

from __future__ import annotations

from tatami_functions.common.tables import IndexSchema, TableSchema
from zindex import Attribute, IndexedTable, ZIndex
from zorder import Fixed, Text, Timestamp

# One GSI answers three questions (by date, a date range, OrderId/OrderDate/Status); OrderId and
# OrderDate are keys of the index, so INCLUDE adds Status only.
CUSTOMER_ORDERS = IndexSchema("CustomerOrders", "CustomerId", "OrderDate", include=("Status",))
# Composite sort key `Status#OrderDate`: "PENDING orders older than five days" is one key condition.
CUSTOMER_STATUS_ORDERS = IndexSchema(
    "CustomerStatusOrders", "CustomerId", "StatusDate", include=("OrderDate", "Status")
)
# Write-sharded: `Status#n` (n random in 1..N) spreads a low-cardinality status over N partitions
# (N: `keys.DEFAULT_SHARDS` unless the stack says otherwise, at most `keys.MAX_SHARDS`).
STATUS_ORDERS = IndexSchema("StatusOrders", "StatusShard", "OrderDate", include=("CustomerId", "Status"))
# No stream of its own: nothing consumes the orders' changes (analytics read point-in-time exports);
# the Z index's maintainer turns one on (infra/patterns/zorder_index.py).
ORDERS = TableSchema("OrderId", indexes=(CUSTOMER_ORDERS, CUSTOMER_STATUS_ORDERS, STATUS_ORDERS))
# The customer's summary (order count, total, last order), updated in the same transaction as the order.
CUSTOMERS = TableSchema("CustomerId")

# Orders searched by date, total and status at once: the second table the Z-index engine indexes
# (places is the first), with other types: an instant (ISO-8601 text, `Timestamp`), an amount (`Fixed`,
# saturating at 100,000: larger orders share the ceiling's address and the filter compares the real
# total) and a status (its first letter, `Text(1)`, which tells PENDING, ORDERED, IN_TRANSIT and
# DELIVERED apart). The construct adds the GSI and the maintainer from it; the function reads it back
# from the engine's variable (`ZINDEX_SPEC`).
Z_INDEX = "orders-z"
TOTAL_CEILING = 100_000  # totals above it share the ceiling's address (2 decimals; 0.006 steps below it)
ORDERS_ZINDEX = IndexedTable(
    table="",  # bound to the deployed table by the construct
    key=ORDERS.key_names,
    attributes=(
        Attribute("OrderDate", Timestamp(44)),  # epoch ms of the years 1692-2248
        Attribute("Total", Fixed(0, TOTAL_CEILING, 24), domain=(None, TOTAL_CEILING)),
        Attribute("Status", Text(1)),
    ),
    indexes=(ZIndex(Z_INDEX, ("OrderDate", "Total", "Status"), bucket_bits=6),),
    projection=("CustomerId", "OrderDate", "Status", "Total"),
)
