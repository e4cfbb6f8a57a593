"""The places routes on moto: validation (400 naming the field, never a 500), 404, round trips, search
pages through signed `next` tokens."""

from __future__ import annotations

from typing import Any

import pytest

from tests.functional.places.conftest import Call

TOKYO = {"name": "Tokyo", "latitude": 35.6895, "longitude": 139.69171, "population": 8336599, "country": "JP"}


def test_put_then_get_round_trips_without_index_keys(call: Call) -> None:
    status, body = call("PUT", "/places/tokyo", TOKYO)
    assert status == 200 and body == {"id": "tokyo", **TOKYO}
    assert call("GET", "/places/tokyo") == (200, {"id": "tokyo", **TOKYO})


def test_unknown_place_is_404(call: Call) -> None:
    status, body = call("GET", "/places/nowhere")
    assert status == 404 and "nowhere" in body["message"]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"latitude": 90.5}, "latitude"),
        ({"latitude": "35.6"}, "latitude"),
        ({"longitude": -180.01}, "longitude"),
        ({"population": -1}, "population"),
        ({"population": 1.5}, "population"),
        ({"population": 2**32}, "population"),
        ({"population": True}, "population"),
        ({"name": ""}, "name"),
        ({"name": None}, "name"),
        ({"country": "jp"}, "country"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_put_rejects_bad_places_naming_the_field(call: Call, change: dict[str, Any], field: str) -> None:
    status, body = call("PUT", "/places/bad", {**TOKYO, **change})
    assert status == 400, body
    assert field in body["message"] and any(field in e["field"] for e in body["errors"])


@pytest.mark.parametrize("body", ["{not json", "[]", None])
def test_put_rejects_bodies_that_are_not_a_place(call: Call, body: Any) -> None:
    status, answer = call("PUT", "/places/bad", body)
    assert status == 400 and "message" in answer


@pytest.mark.parametrize("place_id", ["__zindex__", "a b", "x" * 200])
def test_reserved_and_malformed_ids_are_400_naming_id(call: Call, place_id: str) -> None:
    status, body = call("PUT", f"/places/{place_id}", TOKYO)
    assert status == 400 and "id" in body["message"]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"latitude_min": "10", "latitude_max": "5"}, "latitude_min"),
        ({"latitude_min": "91"}, "latitude_min"),
        ({"longitude_max": "181"}, "longitude_max"),
        ({"latitude_max": "nan"}, "latitude_max"),
        ({"population_min": "-1"}, "population_min"),
        ({"population_min": "1.5"}, "population_min"),
        ({"population_min": "100", "population_max": "10"}, "population_min"),
        ({"limit": "0"}, "limit"),
        ({"limit": "1001"}, "limit"),
        ({"next": "garbage"}, "next"),
    ],
)
def test_search_rejects_bad_queries_naming_the_field(call: Call, query: dict[str, str], field: str) -> None:
    status, body = call("GET", "/places/search", query=query)
    assert status == 400, body
    assert field in body["message"]


def test_search_pages_through_next_tokens_bound_to_their_query(call: Call, aws: dict[str, Any]) -> None:
    query = {"latitude_min": "-90", "latitude_max": "-20", "limit": "25"}
    expected = {p["id"] for p in aws["places"] if p["latitude"] <= -20}
    seen: list[str] = []
    status, body = call("GET", "/places/search", query=query)
    while True:
        assert status == 200 and set(body["stats"]) >= {
            "items_read",
            "items_returned",
            "queries",
            "consumed_rcu",
            "index",
            "plan",
            "estimate",
            "index_lag_seconds",
        }
        assert "plan" not in body or body["plan"] is None  # only with explain=true
        assert body["stats"]["items_returned"] == len(body["items"]) <= 25
        assert all("zaddr" not in i and "zbucket" not in i for i in body["items"])
        seen += [i["id"] for i in body["items"]]
        if body["next"] is None:
            break
        token = body["next"]
        status, body = call("GET", "/places/search", query={**query, "next": token})
    assert len(seen) == len(set(seen)) and set(seen) == expected
    other = {"latitude_min": "-90", "latitude_max": "-21", "next": token}  # replayed on another query
    status, body = call("GET", "/places/search", query=other)
    assert status == 400 and "next" in body["message"]


def test_search_with_all_three_bounds(call: Call, aws: dict[str, Any]) -> None:
    query = {
        "latitude_min": "-60",
        "latitude_max": "60",
        "population_min": "1000",
        "population_max": "1000000",
    }
    status, body = call("GET", "/places/search", query={**query, "limit": "1000"})
    expected = {
        p["id"] for p in aws["places"] if -60 <= p["latitude"] <= 60 and 1000 <= p["population"] <= 1000000
    }
    assert status == 200 and {i["id"] for i in body["items"]} == expected


def test_search_across_the_antimeridian(call: Call, aws: dict[str, Any]) -> None:
    status, body = call("GET", "/places/search", query={"longitude_min": "170", "longitude_max": "-170"})
    assert status == 200
    expected = {p["id"] for p in aws["places"] if p["longitude"] >= 170 or p["longitude"] <= -170}
    assert {i["id"] for i in body["items"]} == expected and body["next"] is None


def test_explain_returns_every_candidate_plan_beside_the_results(call: Call, aws: dict[str, Any]) -> None:
    query = {"population_min": "2000000", "explain": "true", "limit": "1000"}
    status, body = call("GET", "/places/search", query=query)
    assert status == 200, body
    chosen = [row for row in body["plan"] if row["chosen"]]
    assert len(chosen) == 1 and chosen[0]["plan"] == body["stats"]["plan"]
    assert {row["kind"] for row in body["plan"]} >= {"z-ranges", "z-between", "z-walk", "sorted", "scan"}
    expected = {p["id"] for p in aws["places"] if p["population"] >= 2000000}
    assert {i["id"] for i in body["items"]} == expected


def test_numbers_too_small_for_dynamodb_are_stored_and_searched_as_the_numbers_it_holds(call: Call) -> None:
    """A coordinate of 2.2e-313 (fuzzing found it: a 502) is below DynamoDB's smallest number, 1E-130:
    it is stored as 0, and a bound there becomes the one that selects the same stored numbers
    (zindex.dynamojson.as_bound)."""
    status, body = call("PUT", "/places/tiny", {**TOKYO, "latitude": 2.2250738585e-313})
    assert status == 200 and body["latitude"] == 0
    for query in ({"latitude_min": "2e-313"}, {"latitude_max": "-2e-313"}, {"longitude_min": "-1e-300"}):
        status, body = call("GET", "/places/search", query=query)
        assert status == 200, body


def test_a_search_on_an_index_that_is_behind_says_how_far(call: Call, aws: dict[str, Any]) -> None:
    """The maintainer's last batch was full 30 s ago (a backlog): searches say so until it catches up."""
    import time
    from decimal import Decimal

    import boto3

    from tatami_functions.common import index_search
    from tests.functional.places.conftest import TABLE
    from tests.support.zindex import places_on
    from zindex.dynamodb import IndexRepository

    repository = IndexRepository(places_on(TABLE), boto3.client("dynamodb"))
    now = time.time()
    repository.update_status(
        {}, {"batch_at": Decimal(str(now - 30)), "iterator_age_s": Decimal(5), "batch_full": True}
    )
    index_search.searcher.cache_clear()
    _, behind = call("GET", "/places/search", query={"latitude_min": "10"})
    assert behind["stats"]["index_lag_seconds"] >= 35
    repository.update_status(
        {}, {"batch_at": Decimal(str(now)), "iterator_age_s": Decimal(1), "batch_full": False}
    )
    index_search.searcher.cache_clear()
    _, caught_up = call("GET", "/places/search", query={"latitude_min": "10"})
    assert caught_up["stats"]["index_lag_seconds"] == 0.0
