"""Search equals brute force on DynamoDB Local: random boxes bounding one, two or three dimensions, across
the antimeridian and up to the poles; exact pages; stats from ReturnConsumedCapacity."""

from __future__ import annotations

import random
from decimal import Decimal as D
from typing import Any

import pytest

from infra.constructs.places import POPULATION_CEILING
from places import repository, search, statistics
from places.query import SearchRequest
from places.settings import IndexSettings
from tests.functional.places.helpers import brute_force, random_request, search_all

LON = frozenset({"longitude"})


def _model(settings: IndexSettings) -> Any:
    data = repository.get_statistics(settings)
    assert data is not None
    return statistics.loads(data, settings.schema)


@pytest.mark.parametrize("seed", range(5))
def test_search_equals_brute_force(indexed: tuple[IndexSettings, list[dict[str, Any]]], seed: int) -> None:
    settings, places = indexed
    rng, model = random.Random(seed), _model(settings)
    for _ in range(12):
        request = random_request(rng)
        assert {i["id"] for i in search_all(request, settings, model, 500)} == brute_force(request, places)


@pytest.mark.parametrize(
    "bounds",
    [
        {"latitude": (D(85), D(90))},  # the north pole cap
        {"latitude": (D(-90), D(-89))},  # the south pole
        {"longitude": (D(179), D(-179))},  # across the antimeridian
        {"longitude": (D(180), D(180))},  # exactly on it
        {"longitude": (D(-180), D(-180)), "population": (0, 0)},
        {"latitude": (D(-10), D(10)), "longitude": (D(170), D(-170)), "population": (1000, None)},
        {"population": (POPULATION_CEILING, None)},  # the domain's ceiling and the places above it
        {"population": (POPULATION_CEILING + 1, 2**32 - 1)},  # only above it: the filter tells them apart
    ],
)
def test_edges(indexed: tuple[IndexSettings, list[dict[str, Any]]], bounds: dict[str, Any]) -> None:
    settings, places = indexed
    request = SearchRequest(bounds, LON)
    expected = brute_force(request, places)
    assert expected, "the random places include these edges"
    assert {i["id"] for i in search_all(request, settings, _model(settings), 1000)} == expected


def test_pages_are_exact_and_stats_come_from_dynamodb(
    indexed: tuple[IndexSettings, list[dict[str, Any]]],
) -> None:
    settings, places = indexed
    wide = SearchRequest({"latitude": (D(-60), D(60)), "population": (10_000, None)}, LON)
    narrow = SearchRequest({"latitude": (D(-90), D(-60))}, LON)
    for request, limit in ((wide, 97), (narrow, 3)):
        expected = brute_force(request, places)
        assert len(expected) > 2 * limit
        assert {i["id"] for i in search_all(request, settings, _model(settings), limit)} == expected
    search._cache.clear()
    page = search.run_page(wide, 1000, None, settings)[2]  # statistics read from the table this time
    assert page.items_read >= page.items_returned > 0 and page.queries > 0 and page.consumed_rcu > 0
