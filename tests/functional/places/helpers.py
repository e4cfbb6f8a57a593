"""Shared by the places tests (moto and DynamoDB Local): the table as the construct defines it, random
places with the awkward ones (poles, antimeridian, duplicates), random queries, brute force."""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

from boto3.dynamodb.types import Binary

from infra.constructs.places import (
    BUCKET_BITS,
    INDEX_NAME,
    PLACES_DOMAIN,
    PLACES_SCHEMA,
    POPULATION_CEILING,
    PROJECTED,
)
from places import repository
from places.addressing import placement
from places.density import Density
from places.executor import Cursor
from places.query import SearchRequest
from places.search import run_page
from places.settings import IndexSettings


def settings_for(table: str) -> IndexSettings:
    return IndexSettings(table, INDEX_NAME, PLACES_SCHEMA, BUCKET_BITS, domain=PLACES_DOMAIN)


def create_table(client: Any, name: str, stream: bool = False) -> None:
    """The places table of infra/constructs/places.py (key id; GSI zbucket/zaddr, INCLUDE projection)."""
    client.create_table(
        TableName=name,
        BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[
            {"AttributeName": "id", "AttributeType": "S"},
            {"AttributeName": "zbucket", "AttributeType": "S"},
            {"AttributeName": "zaddr", "AttributeType": "B"},
        ],
        KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
        GlobalSecondaryIndexes=[
            {
                "IndexName": INDEX_NAME,
                "KeySchema": [
                    {"AttributeName": "zbucket", "KeyType": "HASH"},
                    {"AttributeName": "zaddr", "KeyType": "RANGE"},
                ],
                "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": list(PROJECTED)},
            }
        ],
        **(
            {"StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"}}
            if stream
            else {}
        ),
    )


def random_places(rng: random.Random, count: int, prefix: str = "p") -> list[dict[str, Any]]:
    """Clustered places (most data is), plus the edges: the poles, the antimeridian, population 0, the
    domain's ceiling and populations above it (indexed at the ceiling)."""
    centres = [(rng.uniform(-60, 70), rng.uniform(-180, 180)) for _ in range(12)]
    places = []
    for n in range(count):
        if n % 10 == 0:  # the edges of every dimension
            lat = rng.choice([-90.0, 90.0, rng.uniform(-90, 90)])
            lon = rng.choice([-180.0, 180.0, 179.999, -179.999, rng.uniform(-180, 180)])
        else:
            clat, clon = rng.choice(centres)
            lat = max(-90.0, min(90.0, rng.gauss(clat, 3)))
            lon = (rng.gauss(clon, 5) + 180.0) % 360.0 - 180.0
        population = rng.choice(
            [0, POPULATION_CEILING, int(10 ** rng.uniform(2, 7.5)), int(10 ** rng.uniform(2, 5)), 2**32 - 1]
        )
        places.append(
            {
                "id": f"{prefix}{n}",
                "name": f"Place {n}",
                "latitude": Decimal(str(round(lat, 5))),
                "longitude": Decimal(str(round(lon, 5))),
                "population": population,
                "country": "XX",
            }
        )
    return places


def write_indexed(settings: IndexSettings, places: list[dict[str, Any]]) -> None:
    """Items with their index keys already set (what the maintainer would write)."""
    with repository.table(settings.table).batch_writer() as batch:
        for place in places:
            where = placement(settings, place)
            batch.put_item(Item={**place, "zaddr": Binary(where.address), "zbucket": where.bucket})


def _range(rng: random.Random, lo: float, hi: float, width: float) -> tuple[Decimal, Decimal]:
    a = rng.uniform(lo, hi - width)
    return Decimal(str(round(a, 4))), Decimal(str(round(a + width, 4)))


def random_request(rng: random.Random) -> SearchRequest:
    """1, 2 or 3 bounded dimensions; about one in six crosses the antimeridian, one in six a pole."""
    bounds: dict[str, tuple[Any, Any]] = {}
    kinds = rng.sample(["latitude", "longitude", "population"], rng.randint(1, 3))
    for kind in kinds:
        if kind == "latitude":
            width = rng.choice([0.5, 3, 20, 90])
            bounds["latitude"] = rng.choice(
                [
                    _range(rng, -90, 90, width),
                    (Decimal(90) - Decimal(width), Decimal(90)),
                    (Decimal(-90), Decimal(-90) + Decimal(width)),
                ]
            )
        elif kind == "longitude":
            width = rng.choice([1, 10, 60])
            low, high = _range(rng, -180, 180, width)
            bounds["longitude"] = rng.choice(
                [(low, high), (Decimal(180) - Decimal(width) / 2, Decimal(-180) + Decimal(width) / 2)]
            )
        else:
            low = rng.choice([0, 1000, 50_000, 1_000_000])
            bounds["population"] = rng.choice(
                [
                    (low, None),
                    (None, low * 10 + 5),
                    (low, low * 30 + 7),
                    (POPULATION_CEILING, 2**32 - 1),
                    (POPULATION_CEILING + 1, None),
                    (2_000_000, 30_000_000),
                ]
            )
    return SearchRequest(bounds, frozenset({"longitude"}))


def search_all(
    request: SearchRequest, settings: IndexSettings, model: Density | None, limit: int
) -> list[dict[str, Any]]:
    """Every page of a search; pages must not repeat an item."""
    items: list[dict[str, Any]] = []
    cursor: Cursor | None = None
    for _ in range(10_000):
        page, cursor, stats = run_page(request, limit, cursor, settings, model)
        assert len(page) <= limit and stats.items_returned == len(page)
        items.extend(page)
        if cursor is None:
            break
    ids = [i["id"] for i in items]
    assert len(ids) == len(set(ids)), "a page repeated an item"
    return items


def brute_force(request: SearchRequest, places: list[dict[str, Any]]) -> set[str]:
    return {p["id"] for p in places if request.matches(p)}


def stream_record(item: dict[str, Any], event: str = "INSERT", sequence: int = 1) -> dict[str, Any]:
    """A DynamoDB stream record as Lambda delivers it (DynamoDB JSON, binaries in base64)."""
    import base64

    from boto3.dynamodb.types import TypeSerializer

    def wire(value: Any) -> dict[str, Any]:
        typed = TypeSerializer().serialize(value)
        return {"B": base64.b64encode(bytes(typed["B"])).decode()} if "B" in typed else typed

    return {
        "eventID": f"e{sequence}",
        "eventName": event,
        "eventSource": "aws:dynamodb",
        "awsRegion": "us-east-1",
        "eventSourceARN": "arn:aws:dynamodb:us-east-1:123456789012:table/places/stream/2026",
        "dynamodb": {
            "Keys": {"id": {"S": item["id"]}},
            "NewImage": {name: wire(value) for name, value in item.items()},
            "SequenceNumber": str(sequence).zfill(21),
            "SizeBytes": 100,
            "StreamViewType": "NEW_AND_OLD_IMAGES",
        },
    }
