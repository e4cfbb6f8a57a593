"""Orders searched by date, total and status at once: the Orders table declared to the Z-index engine.

The second table the engine indexes (places is the first), with other types: an instant (ISO-8601
text, ``Timestamp``), an amount (``Fixed``, saturating at 100,000: larger orders share the ceiling's
address and the filter compares the real total) and a status (its first letter, ``Text(1)``, which tells
PENDING, ORDERED, IN_TRANSIT and DELIVERED apart). The infrastructure reads this declaration to add the
GSI and the maintainer (infra/constructs/forum_orders_businesses.py); the function reads it back from
``ZINDEX_SPEC``. ``GET /orders/search`` answers through ``common.index_search``.
"""

from __future__ import annotations

from zindex import Attribute, IndexedTable, ZIndex
from zorder import Fixed, Text, Timestamp

Z_INDEX = "orders-z"
SCOPE = "orders-search"
TOTAL_CEILING = 100_000  # totals above it share the ceiling's address (2 decimals; 0.006 steps below it)

ORDERS = IndexedTable(
    table="",  # bound to the deployed table by the construct
    key=("OrderId",),
    attributes=(
        Attribute("OrderDate", Timestamp(44)),  # epoch ms of the years 1692-2248
        Attribute("Total", Fixed(0, TOTAL_CEILING, 24), domain=(None, TOTAL_CEILING)),
        Attribute("Status", Text(1)),
    ),
    indexes=(ZIndex(Z_INDEX, ("OrderDate", "Total", "Status"), bucket_bits=6),),
    projection=("CustomerId", "OrderDate", "Status", "Total"),
)
