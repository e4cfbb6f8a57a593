"""Declarations travel through the environment; an item's index keys; a search's boxes, key ranges and
filter (bounds, the antimeridian, domains, unencodable values)."""

from __future__ import annotations

import math
from decimal import Decimal as D

import pytest

from tatami_functions.places.table import PLACES, POPULATION_CEILING
from zindex import Attribute, BadQueryError, IndexedTable, SearchQuery, SortedIndex, UnencodableError, ZIndex
from zindex.keys import index_keys, indexable
from zorder import Fixed, UInt

T = PLACES.named("T")
Z = T.index("places-z")
assert isinstance(Z, ZIndex)
POPULATION = T.index("places-population")
assert isinstance(POPULATION, SortedIndex)
TOKYO = {"id": "1850147", "latitude": D("35.6895"), "longitude": D("139.69171"), "population": 8336599}


def test_a_declaration_round_trips_through_the_environment() -> None:
    assert IndexedTable.from_env({"ZINDEX_SPEC": T.to_json()}) == T
    with pytest.raises(RuntimeError, match="ZINDEX_SPEC"):
        IndexedTable.from_env({})


@pytest.mark.parametrize(
    ("indexes", "message"),
    [
        ((), "at least one index"),
        ((ZIndex("a", ("x",), 2), ZIndex("a", ("x",), 2, "b2", "a2")), "its own name"),
        ((ZIndex("a", ("x",), 2), SortedIndex("b", "x", shard_attribute="zbucket")), "distinct"),
        ((ZIndex("a", ("nope",), 2),), "unknown attributes"),
        ((ZIndex("a", ("x",), 12),), "bucket_bits"),
    ],
)
def test_bad_declarations_say_what_is_wrong(indexes: tuple, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(ValueError, match=message):
        IndexedTable("T", ("id",), (Attribute("x", UInt(8)),), indexes)


def test_index_keys_place_an_item_in_every_index() -> None:
    keys = index_keys(T, TOKYO)
    address = T.schema("places-z").encode({**TOKYO, "population": POPULATION_CEILING})  # saturated
    assert keys["zaddr"] == address
    assert keys["zbucket"] == f"places-z#{int.from_bytes(address) >> Z.bucket_shift(T):03x}"
    assert keys["pshard"] in {f"places-population#{n}" for n in range(4)}
    assert index_keys(T, {**TOKYO, "name": "other"}) == keys  # other attributes do not move it


@pytest.mark.parametrize(
    "values",
    [
        {"latitude": math.nan},
        {"latitude": D("NaN")},
        {"population": D("sNaN")},
        {"latitude": "35.6"},
        {"latitude": True},
        {"latitude": 91},
        {"population": -1},
        {"population": D("1.5")},
    ],
)
def test_unencodable_values_raise_naming_the_attribute(values: dict[str, object]) -> None:
    with pytest.raises(UnencodableError, match=next(iter(values))):
        index_keys(T, {**TOKYO, **values})


def test_indexable_needs_every_attribute_and_no_reserved_key() -> None:
    assert indexable(T, TOKYO)
    assert not indexable(T, {k: v for k, v in TOKYO.items() if k != "population"})
    assert not indexable(T, {**TOKYO, "population": None})
    assert not indexable(T, {**TOKYO, "id": "__zindex__#status"})


def test_min_above_max_names_the_field_except_for_a_wrapping_attribute() -> None:
    with pytest.raises(BadQueryError, match="latitude_min") as caught:
        SearchQuery(T, {"latitude": (D(10), D(5))})
    assert caught.value.field == "latitude_min"
    assert SearchQuery(T, {"longitude": (D(170), D(-170))}).wraps("longitude")
    with pytest.raises(BadQueryError, match="colour"):
        SearchQuery(T, {"colour": (1, 2)})


def test_a_wrapping_longitude_is_two_boxes_and_one_filter() -> None:
    query = SearchQuery(T, {"longitude": (D(170), D(-170)), "latitude": (D(-20), D(-10))})
    west, east = Z.boxes(query)
    assert (west.lower[1], east.upper[1]) == (0, 2**16 - 1)  # -180.. and ..180
    search = query.filter()
    assert search is not None and " OR " in search.expression and "BETWEEN" in search.expression
    assert query.matches({"latitude": D(-15), "longitude": D(179)})
    assert not query.matches({"latitude": D(-15), "longitude": D(0)})
    assert not query.matches({"longitude": D(179)})  # a missing attribute never matches
    by_longitude = SortedIndex("by-longitude", "longitude")
    assert by_longitude.key_range(query) is None  # a sorted index cannot serve a seam


def test_the_table_scan_filter_requires_every_attribute() -> None:
    search = SearchQuery(T, {"latitude": (D(1), None)}).filter(
        require=("latitude", "longitude", "population")
    )
    assert search is not None and search.expression.count("attribute_exists") == 2


def test_scope_is_canonical() -> None:
    a = SearchQuery(T, {"latitude": (D(1), None), "population": (None, 5)})
    b = SearchQuery(T, {"population": (None, 5), "latitude": (D(1), None)})
    assert a.scope("s") == b.scope("s") != SearchQuery(T, {"latitude": (D(1), None)}).scope("s")


def test_bounds_beyond_the_domain_look_among_the_items_at_its_ceiling() -> None:
    (box,) = Z.boxes(SearchQuery(T, {"latitude": (D(0), D(1)), "longitude": (D(10), D(11))}))
    assert box.upper[2] == POPULATION_CEILING  # open population: only the populations that occur
    (above,) = Z.boxes(SearchQuery(T, {"population": (5_000_000, 6_000_000)}))
    assert above.lower[2] == above.upper[2] == POPULATION_CEILING
    city = index_keys(T, {**TOKYO, "population": 5_500_000})["zaddr"]
    assert above.contains(int.from_bytes(city))
    assert POPULATION.key_range(SearchQuery(T, {"population": (5_000_000, 6_000_000)})) == (
        5_000_000,
        6_000_000,
    )


def test_live_buckets_are_those_the_domains_reach() -> None:
    assert len(Z.live_buckets(T)) == 256  # 11 bits: 4 of latitude, 4 of longitude, 3 always-zero population
    ix = ZIndex("ix", ("a", "b"), 2)
    small = IndexedTable("T", ("id",), (Attribute("a", UInt(4)), Attribute("b", UInt(4), (0, 7))), (ix,))
    assert ix.live_buckets(small) == [0, 2]


def test_fixed_attributes_accept_decimals_from_the_api() -> None:
    ix = ZIndex("ix", ("x",), 2)
    table = IndexedTable("T", ("id",), (Attribute("x", Fixed(0, 1, 8)),), (ix,))
    (box,) = ix.boxes(SearchQuery(table, {"x": (D("0.25"), D("0.5"))}))
    assert (box.lower[0], box.upper[0]) == (64, 128)
