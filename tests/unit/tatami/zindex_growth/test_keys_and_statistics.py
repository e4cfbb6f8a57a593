"""Keys and statistics computed for every row at once are the engine's own: ``zindex.keys.index_keys``
item for item (the poles, the antimeridian, populations at and past the Z index's ceiling included),
and ``zindex.statistics.build`` byte for byte."""

from __future__ import annotations

import zlib

import numpy as np

from tatami.dynamodb_model.numbers import Numbers
from tatami.dynamodb_model.texts import Formatted
from tatami.zindex_growth.generator import generate
from tatami.zindex_growth.keys import crc32, index_columns
from tatami.zindex_growth.statistics import statistics
from tatami.zindex_growth.table import places_model
from tatami_functions.places.table import PLACES, POPULATION_CEILING
from zindex.analyze import scan_items
from zindex.dynamodb import IndexRepository
from zindex.keys import index_keys
from zindex.statistics import build, dumps

DECLARATION = PLACES.named("growth")


def test_keys_of_every_row_are_the_maintainers() -> None:
    rng = np.random.default_rng(2)
    latitude = np.concatenate([[-9_000_000, 9_000_000, 0, 1], rng.integers(-9_000_000, 9_000_001, 3000)])
    longitude = np.concatenate(
        [[-18_000_000, 17_999_999, 0, -1], rng.integers(-18_000_000, 18_000_000, 3000)]
    )
    edges = [0, POPULATION_CEILING, POPULATION_CEILING + 1, 2**32 - 1]
    population = np.concatenate([edges, rng.integers(0, 2**32, 3000)]).astype(np.uint32)
    columns = {
        "latitude": Numbers(latitude.astype(np.int32), 5),
        "longitude": Numbers(longitude.astype(np.int32), 5),
        "population": Numbers(population),
    }
    ids = Formatted(len(latitude), "", 9)
    keys = index_columns(DECLARATION, columns, ids)
    rows = np.arange(len(latitude))
    values = {name: column.values(rows) for name, column in {**columns, **keys, "id": ids}.items()}
    for n in rows.tolist():
        item = {name: found[n] for name, found in values.items()}
        assert {k: item[k] for k in keys} == index_keys(DECLARATION, item), item


def test_crc32_of_generated_ids_is_zlibs() -> None:
    ids = Formatted(10**9, "p", 9)
    rows = np.array([0, 7, 123_456_789, 999_999_999])
    assert crc32(ids, rows).tolist() == [zlib.crc32(ids.text(r).encode()) for r in rows.tolist()]


def test_statistics_of_the_columns_are_what_analyze_builds(growth_cities: object) -> None:
    model = places_model(DECLARATION, generate(4000, growth_cities, seed=5), growth_cities)  # type: ignore[arg-type]
    built = statistics(DECLARATION, model.table(DECLARATION.table), groups=300)  # 14 keys a group
    analysed = build(DECLARATION, scan_items(IndexRepository(DECLARATION, model)), max_groups=300)
    for index in DECLARATION.indexes:
        assert dumps(DECLARATION, built, index.name) == dumps(DECLARATION, analysed, index.name)
