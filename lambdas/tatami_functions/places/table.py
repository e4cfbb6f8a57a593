"""The places table, declared once: ``PLACES_TABLE`` (key ``id``, streaming its changes to the engine's
maintainer) and ``PLACES``, what it declares to the Z-index engine: its searchable attributes and indexes.

The infrastructure builds the table and, from ``PLACES``, the GSIs and the maintainer
(infra/services/places.py); the functions read the declaration back from their environment
(``PlacesSettings``), with the deployed table's name. The layout was chosen by measurement
(bench/zorder_search.py):

* ``places-z``: latitude/longitude as ``Fixed`` 16 bits (steps of ~300 m) and population as ``UInt(32)``
  saturating at 2**20 - 1. zorder aligns every dimension's top bits at the top of the address, so the
  population's top bits share levels with latitude/longitude; nearly every place has fewer than
  65,536 inhabitants, those bits are zero, and a box that leaves population open behaves like a 2-D
  box. Larger populations share the ceiling's address (the filter still compares the real value).
  11 bucket bits: the top 4 bits of latitude and longitude (256 live buckets of 11.25 x 22.5 degrees).
* ``places-population``: sorted by population in 4 shards, for searches a population bound makes
  selective (``population_min=1000000`` over the world: 4 Queries reading about what they return).
"""

from __future__ import annotations

from tatami_functions.common.tables import TableSchema
from zindex import Attribute, IndexedTable, SortedIndex, ZIndex
from zorder import Fixed, UInt

PLACES_TABLE = TableSchema("id", stream="NEW_AND_OLD_IMAGES")

Z_INDEX = "places-z"
POPULATION_INDEX = "places-population"
POPULATION_CEILING = 2**20 - 1  # populations above it share the ceiling's address in places-z
MAX_POPULATION = 2**32 - 1  # what the population encoding holds: more people than the Earth has
PROJECTED = ("name", "latitude", "longitude", "population", "country")

PLACES = IndexedTable(
    table="",  # bound to the deployed table by the construct
    key=PLACES_TABLE.key_names,
    attributes=(
        Attribute("latitude", Fixed(-90, 90, 16)),
        Attribute("longitude", Fixed(-180, 180, 16), wraps=True),
        Attribute("population", UInt(32), domain=(None, POPULATION_CEILING)),
    ),
    indexes=(
        ZIndex(Z_INDEX, ("latitude", "longitude", "population"), bucket_bits=11),
        SortedIndex(POPULATION_INDEX, "population", shards=4, shard_attribute="pshard"),
    ),
    projection=PROJECTED,
)
