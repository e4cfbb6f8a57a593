"""Search equals brute force on DynamoDB Local, through every access path the optimizer can choose
(Z ranges, one BETWEEN per bucket, the BIGMIN walk, the population-sorted index, a Scan of an index and
of the table), in pages small and large that neither repeat nor miss an item."""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

import pytest

from tests.support.zindex import brute_force, create_table, random_bounds, search_all, searcher_on
from zindex import Plan, SearchQuery, SortedIndex
from zindex.dynamodb import IndexRepository
from zindex.search import Searcher
from zindex.statistics import Statistics

POPULATION = SortedIndex("places-population", "population")  # what its plans need: the attribute
PATHS = {
    "z-ranges": lambda p: p.kind == "z-ranges",
    "z-between": lambda p: p.kind == "z-between",
    "z-walk": lambda p: p.kind == "z-walk",
    "sorted": lambda p: p.kind == "sorted",
    "scan-index": lambda p: p.kind == "scan" and p.index == "places-z",
    "scan-table": lambda p: p.kind == "scan" and p.index is None,
}


@pytest.mark.parametrize("path", sorted(PATHS))
def test_every_access_path_equals_brute_force(client: Any, places: Any, path: str) -> None:
    declaration, items = places
    rng = random.Random(path)
    tried = 0
    while tried < 4:
        query = SearchQuery(declaration, random_bounds(rng))
        if path == "sorted" and POPULATION.key_range(query) is None:
            continue
        tried += 1
        found, _ = search_all(
            searcher_on(client, declaration), query, rng.choice([7, 100, 1000]), PATHS[path]
        )
        assert {i["id"] for i in found} == brute_force(query, items), query.bounds


@pytest.mark.parametrize("seed", range(3))
def test_the_chosen_plan_equals_brute_force(client: Any, places: Any, seed: int) -> None:
    declaration, items = places
    rng = random.Random(seed)
    searcher = searcher_on(client, declaration)
    for _ in range(5):
        query = SearchQuery(declaration, random_bounds(rng))
        found, _ = search_all(searcher, query, rng.choice([1, 10, 1000]))
        assert {i["id"] for i in found} == brute_force(query, items), query.bounds


def test_pages_neither_repeat_nor_miss_at_any_size(client: Any, places: Any) -> None:
    declaration, items = places
    band = SearchQuery(declaration, {"latitude": (Decimal(-90), Decimal(-20))})
    expected = brute_force(band, items)
    assert len(expected) > 40
    searcher = searcher_on(client, declaration)
    for limit in (1, 7, 1000):  # one item per page, a few, all at once
        found, _ = search_all(searcher, band, limit)
        assert {i["id"] for i in found} == expected


def test_without_statistics_plans_are_exact(client: Any, places: Any) -> None:
    declaration, items = places
    searcher = Searcher(IndexRepository(declaration, client), statistics=Statistics.uniform(declaration))
    rng = random.Random(7)
    for _ in range(3):
        query = SearchQuery(declaration, random_bounds(rng))
        assert {i["id"] for i in search_all(searcher, query, 50)[0]} == brute_force(query, items)


def test_a_table_never_analysed_says_so_on_each_page(client: Any, places: Any) -> None:
    declaration, _ = places
    fresh = declaration.named(declaration.table + "-unanalysed")  # no statistics item there
    create_table(client, fresh)
    page = Searcher(IndexRepository(fresh, client)).search(SearchQuery(fresh, {}), 10)
    assert page.items == [] and page.without_statistics and "analyze" in page.without_statistics
    given = Searcher(IndexRepository(declaration, client), statistics=Statistics.uniform(declaration))
    assert given.without_statistics() is None  # statistics given at construction are the plan's own


def test_stats_name_the_plan_and_compare_estimate_with_actual(client: Any, places: Any) -> None:
    declaration, _ = places
    searcher = searcher_on(client, declaration)
    page = searcher.search(SearchQuery(declaration, {"population": (2_000_000, None)}), 10_000)
    stats = page.stats_json()
    assert stats["index"] == "places-population" and stats["plan"].startswith("sorted")
    assert stats["queries"] == 4 and stats["items_read"] == stats["items_returned"]
    assert 0.5 <= stats["estimate"]["items_read"] / stats["items_read"] <= 2
    assert isinstance(page.choice.chosen, Plan) and stats["index_lag_seconds"] == 0.0
