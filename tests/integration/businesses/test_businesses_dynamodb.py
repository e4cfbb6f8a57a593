"""Seed 002's Business table on DynamoDB Local: the drill-down GSI answers the seed's three queries.

BusinessType + `Country:State:City` with `begins_with` at any level (a city is an equality), one
Query on BusinessLocation each, reading only what it returns; a listing without a location stays out
of the (sparse) index.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tatami.samples.businesses import business_data
from tatami_functions.businesses.exceptions import BusinessNotFoundError
from tatami_functions.businesses.locations import location_levels
from tatami_functions.businesses.repository import BusinessesRepository
from tatami_functions.businesses.schemas import Business
from tatami_functions.businesses.table import BUSINESSES
from tests.support.forum_orders import Recorder, create_tables, local_client

DATA = business_data()


def _load(repository: BusinessesRepository, listings: list[dict[str, Any]]) -> None:
    for listing in listings:
        fields = {k: v for k, v in listing.items() if k != "BusinessId"}
        repository.save(listing["BusinessId"], Business(**fields))


@pytest.fixture(scope="module")
def seed_only(dynamodb_local: str) -> Iterator[tuple[BusinessesRepository, Recorder]]:
    client = local_client(dynamodb_local)
    repository = BusinessesRepository(create_tables(client, businesses=BUSINESSES)["businesses"], client)
    _load(repository, DATA["seed"])
    yield repository, Recorder().attach(client)


@pytest.fixture(scope="module")
def with_demo(dynamodb_local: str) -> Iterator[tuple[BusinessesRepository, Recorder]]:
    client = local_client(dynamodb_local)
    repository = BusinessesRepository(create_tables(client, businesses=BUSINESSES)["businesses"], client)
    _load(repository, [*DATA["seed"], *DATA["demo"]])
    yield repository, Recorder().attach(client)


@pytest.mark.parametrize("query", DATA["queries"], ids=lambda q: q["location"])
def test_the_seeds_three_queries(
    seed_only: tuple[BusinessesRepository, Recorder], query: dict[str, Any]
) -> None:
    repository, recorder = seed_only
    page = repository.by_location(query["type"], location_levels(query["location"]), 20)
    assert [b["BusinessName"] for b in page.items] == query["names"]
    (call,) = recorder.take()
    expected = len(query["names"])
    assert (call.operation, call.index, call.scanned, call.count) == (
        "Query",
        "BusinessLocation",
        expected,
        expected,
    )


def test_a_listing_reads_only_the_projection_and_shows_the_seeds_record(
    seed_only: tuple[BusinessesRepository, Recorder],
) -> None:
    repository, _ = seed_only
    (seattle,) = repository.by_location("FitnessCenter", ("USA",), 20).items
    assert seattle == DATA["seed"][0]  # BusinessName, Address, Phone projected; the location split back


def test_drill_down_stops_at_whole_levels(with_demo: tuple[BusinessesRepository, Recorder]) -> None:
    repository, recorder = with_demo
    names = [b["BusinessName"] for b in repository.by_location("Restaurant", ("USA", "Washington"), 20).items]
    assert names == ["Pike Place Chowder", "Spokane Diner", "Valley Grill"]  # in Location order
    spokane = repository.by_location("Restaurant", ("USA", "Washington", "Spokane"), 20).items
    assert [b["BusinessName"] for b in spokane] == ["Spokane Diner"]  # not Spokane Valley
    assert [c.scanned for c in recorder.take()] == [3, 1]


def test_a_listing_without_a_location_is_out_of_the_sparse_index(
    with_demo: tuple[BusinessesRepository, Recorder],
) -> None:
    repository, recorder = with_demo
    online = repository.get("business-9")
    assert "Country" not in online and online["BusinessType"] == "CoffeeShop"
    coffee = repository.by_location("CoffeeShop", (), 20)
    assert "business-9" not in {b["BusinessId"] for b in coffee.items}
    calls = recorder.take()
    assert [(c.operation, c.index) for c in calls] == [("GetItem", None), ("Query", "BusinessLocation")]
    assert calls[1].scanned == len(coffee.items) == 3
    index = repository.client.scan(
        TableName=repository.table_name, IndexName="BusinessLocation", Select="COUNT"
    )
    assert index["Count"] == len(DATA["seed"]) + len(DATA["demo"]) - 1


def test_pages_of_one(with_demo: tuple[BusinessesRepository, Recorder]) -> None:
    repository, _ = with_demo
    first = repository.by_location("CoffeeShop", ("USA",), 1)
    second = repository.by_location("CoffeeShop", ("USA",), 1, first.cursor)
    assert [b["BusinessName"] for b in first.items + second.items] == ["Business2", "Seattle Roasters"]
    assert second.cursor is None


def test_unknown_business_is_not_found(with_demo: tuple[BusinessesRepository, Recorder]) -> None:
    with pytest.raises(BusinessNotFoundError):
        with_demo[0].get("business-404")
