"""Statistics: built from addresses, serialised compactly, refused for another schema; estimates add up."""

from __future__ import annotations

import random

import pytest

from places import statistics
from places.density import Density, Marginal
from places.exceptions import StatisticsError
from zorder import Fixed, Schema, UInt

SCHEMA = Schema.of(latitude=Fixed(-90, 90, 12), longitude=Fixed(-180, 180, 12), population=UInt(24))


def _places(n: int) -> list[bytes]:
    rng = random.Random(1)
    return [
        SCHEMA.encode(
            {
                "latitude": rng.gauss(45, 5),
                "longitude": rng.gauss(10, 8),
                "population": int(10 ** rng.uniform(2, 6)),
            }
        )
        for _ in range(n)
    ]


def test_marginal_is_a_monotone_cdf() -> None:
    m = Marginal((0, 10, 10, 50, 100))
    values = [m.cdf(x) for x in range(-5, 120)]
    assert values == sorted(values) and values[0] == 0.0 and values[-1] == 1.0
    assert m.share(0, 99) == pytest.approx(1.0)


def test_estimates_of_the_whole_space_and_of_halves_add_up() -> None:
    density = statistics.build(SCHEMA, _places(3000), max_cells=500)
    total_bits = SCHEMA.bits
    assert len(density.cells) <= 500 and density.items == 3000
    assert density.interval(0, (1 << total_bits) - 1) == pytest.approx(3000)
    full = [(1 << d.bits) - 1 for d in SCHEMA.dimensions]
    assert density.box((0, 0, 0), full) == pytest.approx(3000)
    half = 1 << (total_bits - 1)
    assert density.interval(0, half - 1) + density.interval(half, 2 * half - 1) == pytest.approx(3000)
    north = SCHEMA.box({"latitude": 45}, {}).lower
    assert 1000 < density.box(north, full) < 2000  # about half the places are north of 45


def test_statistics_round_trip_and_refuse_another_schema() -> None:
    density = statistics.build(SCHEMA, _places(500))
    data = statistics.dumps(density)
    again = statistics.loads(data, SCHEMA)
    assert (again.depth, again.cells, again.marginals, again.items) == (
        density.depth,
        density.cells,
        density.marginals,
        density.items,
    )
    with pytest.raises(StatisticsError, match="another schema"):
        statistics.loads(data, Schema.of(latitude=Fixed(-90, 90, 16)))
    with pytest.raises(StatisticsError, match="unreadable"):
        statistics.loads(b"not zlib", SCHEMA)


def test_no_addresses_give_uniform_estimates() -> None:
    empty = statistics.build(SCHEMA, [])
    assert empty.items == 0 and isinstance(empty, Density)
