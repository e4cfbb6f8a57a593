"""The listings' Z index, declared once: the app builds the index from it and the search reads it back
from its environment (`ZINDEX_SPEC`, set by `ZOrderIndex.grant_search`).

Property listings searched by any box of price (yen), floor area (m2) and the instant they were listed
(epoch milliseconds): three ranges that no single sort key serves, and that a Z-order address does.
"""

from __future__ import annotations

from zindex import Attribute, IndexedTable, ZIndex
from zorder import Timestamp, UInt

PRICE_CEILING = 2**30 - 1  # about a billion yen: dearer listings share the ceiling's address
AREA_CEILING = 2**12 - 1  # 4,095 m2

LISTINGS = IndexedTable(
    table="",  # bound to the deployed table by the construct
    key=("id",),
    attributes=(
        Attribute("price", UInt(30), domain=(None, PRICE_CEILING)),
        Attribute("area", UInt(12), domain=(None, AREA_CEILING)),
        Attribute("listed", Timestamp(44)),  # epoch ms of the years 1692-2248
    ),
    indexes=(ZIndex("listings-z", ("price", "area", "listed"), bucket_bits=4),),
    projection=("price", "area", "listed", "title"),
)
