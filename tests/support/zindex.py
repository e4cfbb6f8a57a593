"""Shared by the Z-index tests (moto and DynamoDB Local): a table made from a declaration, random places
with the awkward ones (poles, antimeridian, duplicates, populations past the ceiling), random queries,
every page of a search, brute force, and stream records as Lambda delivers them."""

from __future__ import annotations

import base64
import random
import uuid
from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any

from tatami_functions.places.table import PLACES, POPULATION_CEILING
from zindex import Cursor, IndexedTable, Plan, SearchQuery, SortedIndex, ZIndex
from zindex.analyze import analyze
from zindex.dynamodb import IndexRepository
from zindex.dynamojson import to_wire, to_wire_item
from zindex.executor import PageStats
from zindex.keys import index_keys
from zindex.search import Searcher


def create_table(client: Any, declaration: IndexedTable, stream: bool = False) -> None:
    """The table and GSIs the ZOrderIndex construct makes for ``declaration`` (string keys)."""
    definitions = dict.fromkeys(declaration.key, "S")
    indexes = []
    for index in declaration.indexes:
        if isinstance(index, ZIndex):
            keys = [(index.bucket_attribute, "S"), (index.address_attribute, "B")]
        else:
            assert isinstance(index, SortedIndex)
            kind = type(declaration.attribute(index.attribute).encoding).__name__
            keys = [
                (index.shard_attribute, "S"),
                (index.attribute, "S" if kind in ("Text", "Timestamp") else "N"),
            ]
        definitions.update(keys)
        projected = [a for a in declaration.projection if a != keys[1][0]]
        indexes.append(
            {
                "IndexName": index.name,
                "KeySchema": [
                    {"AttributeName": keys[0][0], "KeyType": "HASH"},
                    {"AttributeName": keys[1][0], "KeyType": "RANGE"},
                ],
                "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": projected},
            }
        )
    client.create_table(
        TableName=declaration.table,
        BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": n, "AttributeType": t} for n, t in definitions.items()],
        KeySchema=[{"AttributeName": declaration.key[0], "KeyType": "HASH"}],
        GlobalSecondaryIndexes=indexes,
        **(
            {"StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"}}
            if stream
            else {}
        ),
    )


def places_on(table: str) -> IndexedTable:
    return PLACES.named(table)


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


def write_indexed(client: Any, declaration: IndexedTable, items: list[dict[str, Any]]) -> None:
    """Items with their index keys already set (what the maintainer would write)."""
    requests = [{"PutRequest": {"Item": to_wire_item({**i, **index_keys(declaration, i)})}} for i in items]
    for start in range(0, len(requests), 25):
        batch = requests[start : start + 25]
        while batch:
            batch = (
                client.batch_write_item(RequestItems={declaration.table: batch})
                .get("UnprocessedItems", {})
                .get(declaration.table, [])
            )


def loaded_places(client: Any, count: int, seed: int) -> tuple[IndexedTable, list[dict[str, Any]]]:
    """A new places table holding ``count`` indexed random places, and the statistics built from them."""
    declaration = places_on(f"places-{uuid.uuid4().hex[:8]}")
    create_table(client, declaration)
    items = random_places(random.Random(seed), count)
    write_indexed(client, declaration, items)
    analyze(IndexRepository(declaration, client))
    return declaration, items


def _range(rng: random.Random, lo: float, hi: float, width: float) -> tuple[Decimal, Decimal]:
    a = rng.uniform(lo, hi - width)
    return Decimal(str(round(a, 4))), Decimal(str(round(a + width, 4)))


def random_bounds(rng: random.Random) -> dict[str, tuple[Any, Any]]:
    """1, 2 or 3 bounded dimensions; about one in six crosses the antimeridian, one in six a pole."""
    bounds: dict[str, tuple[Any, Any]] = {}
    for kind in rng.sample(["latitude", "longitude", "population"], rng.randint(1, 3)):
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
    return bounds


def search_all(
    searcher: Searcher, query: SearchQuery, limit: int, only: Callable[[Plan], bool] | None = None
) -> tuple[list[dict[str, Any]], PageStats]:
    """Every page of a search (each page's cursor through its JSON form, as a token carries it); pages
    must neither exceed the limit nor repeat an item."""
    items: list[dict[str, Any]] = []
    total, cursor = PageStats(), None
    for _ in range(100_000):
        page = searcher.search(query, limit, cursor, only)
        assert len(page.items) <= limit and page.stats.items_returned == len(page.items)
        items.extend(page.items)
        total.add(page.stats)
        if page.cursor is None:
            break
        cursor = Cursor.from_json(_round_trip(page.cursor.to_json()))
    key = searcher.table.key[0]
    ids = [i[key] for i in items]
    assert len(ids) == len(set(ids)), "a page repeated an item"
    total.items_returned = len(items)
    return items, total


def _round_trip(data: Any) -> Any:
    """A cursor through a signed page token and back, as the service carries it between pages."""
    from tatami_functions.common.tokens import decode_token, encode_token

    return decode_token(encode_token(data, "s", key=b"k"), "s", key=b"k")


def brute_force(query: SearchQuery, items: list[Mapping[str, Any]], key: str = "id") -> set[str]:
    return {i[key] for i in items if query.matches(i)}


def searcher_on(client: Any, declaration: IndexedTable) -> Searcher:
    return Searcher(IndexRepository(declaration, client))


def stream_record(
    item: Mapping[str, Any], event: str = "INSERT", sequence: int = 1, old: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """A DynamoDB stream record as Lambda delivers it (DynamoDB JSON, binaries in base64)."""

    def wire(value: Any) -> dict[str, Any]:
        typed = to_wire(value)
        return {"B": base64.b64encode(typed["B"]).decode()} if "B" in typed else typed

    data: dict[str, Any] = {
        "Keys": {"id": {"S": item["id"]}},
        "SequenceNumber": str(sequence).zfill(21),
        "SizeBytes": 100,
        "StreamViewType": "NEW_AND_OLD_IMAGES",
        "ApproximateCreationDateTime": 1_700_000_000,
    }
    if event != "REMOVE":
        data["NewImage"] = {name: wire(value) for name, value in item.items()}
    if old is not None or event == "REMOVE":
        data["OldImage"] = {name: wire(value) for name, value in (old or item).items()}
    return {
        "eventID": f"e{sequence}",
        "eventName": event,
        "eventSource": "aws:dynamodb",
        "awsRegion": "us-east-1",
        "eventSourceARN": "arn:aws:dynamodb:us-east-1:123456789012:table/places/stream/2026",
        "dynamodb": data,
    }
