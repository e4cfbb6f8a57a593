"""Search equals brute force on random boxes (1, 2 or 3 bounded dimensions, the antimeridian, the poles),
with and without planner statistics, and pages that neither repeat nor miss an item nor cut a span
they could leave whole."""

from __future__ import annotations

import random
from dataclasses import replace
from decimal import Decimal
from typing import Any

import pytest

from places import backfill, planner, repository, search, statistics
from places.density import Density
from places.executor import Job, execute
from places.query import SearchRequest
from tests.functional.places.conftest import TABLE
from tests.functional.places.helpers import brute_force, random_request, search_all, settings_for

SETTINGS = settings_for(TABLE)


@pytest.fixture(scope="module")
def model(aws: dict[str, Any]) -> Density:
    backfill.analyze(SETTINGS)
    data = repository.get_statistics(SETTINGS)
    assert data is not None
    return statistics.loads(data, SETTINGS.schema)


@pytest.mark.parametrize("seed", range(4))
def test_search_equals_brute_force_on_random_boxes(aws: dict[str, Any], model: Density, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(6):
        request = random_request(rng)
        found = {i["id"] for i in search_all(request, SETTINGS, model, limit=1000)}
        assert found == brute_force(request, aws["places"]), request.bounds


def test_pages_neither_repeat_nor_miss(aws: dict[str, Any], model: Density) -> None:
    band = SearchRequest({"latitude": (Decimal(-90), Decimal(-20))}, frozenset({"longitude"}))
    expected = brute_force(band, aws["places"])
    assert len(expected) > 40
    for limit in (1, 7, 1000):  # one item per page, a few, all at once
        assert {i["id"] for i in search_all(band, SETTINGS, model, limit)} == expected


def test_a_page_ends_between_spans_rather_than_cut_one(aws: dict[str, Any], model: Density) -> None:
    """Once half full, a page stops before a span that would not fit; the next page reads it in one
    Query, after a cursor that says "after this address" and holds under any other plan."""
    band = SearchRequest({"latitude": (Decimal(-90), Decimal(-20))}, frozenset({"longitude"}))
    boxes = band.boxes(SETTINGS.schema, SETTINGS.domain)

    def read(spans: list[planner.Span], limit: int = 10**6, cursor: Any = None) -> tuple[list[Any], Any, Any]:
        return execute(Job(SETTINGS, boxes, band.condition(), limit, cursor), spans)

    def address(item: dict[str, Any]) -> int:
        return int.from_bytes(repository.binary(item[SETTINGS.address_attribute]))

    # One span of the plan cut in two after its first match: exact expectations, so no estimate decides.
    whole, items = next(
        (sp, found)
        for sp in planner.plan(SETTINGS, boxes, model).spans
        if len(found := read([sp])[0]) >= 3 and address(found[0]) < address(found[1])
    )
    cut = address(items[0])
    a = replace(whole, last=cut, expected=1.0, reads=1.0)
    b = replace(whole, first=cut + 1, expected=len(items) - 1.0, reads=len(items) - 1.0)
    ids = [i["id"] for i in items]

    first, cursor, stats = read([a, b], limit=2)  # a fits, a + b do not, a is half the page
    assert [i["id"] for i in first] == ids[:1] and stats.queries == 1
    assert cursor is not None and cursor.key is None and int.from_bytes(cursor.address) == cut

    for spans in ([a, b], [whole]):  # the next page's plan may differ: the cursor holds under both
        second, _, stats = read(spans, 2, cursor)
        assert [i["id"] for i in second] == ids[1:3] and stats.queries == 1


def test_without_statistics_the_plan_is_costlier_but_exact(aws: dict[str, Any]) -> None:
    uniform = Density.uniform(SETTINGS.schema)
    rng = random.Random(7)
    for _ in range(3):
        request = random_request(rng)
        assert {i["id"] for i in search_all(request, SETTINGS, uniform, 50)} == brute_force(
            request, aws["places"]
        )


def test_missing_statistics_fall_back_to_uniform_estimates(aws: dict[str, Any]) -> None:
    search._cache.clear()
    other = type(SETTINGS)(TABLE, "other-index", SETTINGS.schema, SETTINGS.bucket_bits)
    assert search.density(other).depth == 0  # no statistics item for that index: uniform
