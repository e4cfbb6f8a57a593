"""Searches whose expected result counts stay put as the places grow: boxes of 10, 100, 1,000 and 10,000
expected places at any size, and the world's places of a million or more.

A box is drawn once (a centre where places are, a tier, a population floor for a third of them) and
sized for each number of places: the half-width, in km, at which the generator's density
(:class:`tatami.zindex_growth.generator.Density`) expects the tier's count. So the same boxes shrink as
the places grow, and every size is asked the same questions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import numpy as np

from tatami.zindex_growth.cities import KM_PER_DEGREE
from tatami.zindex_growth.generator import COORDINATE_SCALE, LON_COS_FLOOR, Density

__all__ = ["FLOORS", "TIERS", "WORLD", "Box", "BoxSpec", "draw", "sized", "world"]

TIERS = (10, 100, 1_000, 10_000)
FLOORS = (1_000, 5_000, 20_000, 100_000)
WORLD = 1_000_000  # the world-wide search: population_min=1000000
_SMALLEST_KM, _LARGEST_KM = 0.001, 40_000.0


@dataclass(frozen=True)
class BoxSpec:
    """A box before it is sized: its tier (expected places), centre, and population floor (or None)."""

    tier: int
    latitude: float
    longitude: float
    floor: int | None


@dataclass(frozen=True)
class Box:
    spec: BoxSpec
    bounds: dict[str, tuple[Any, Any]]
    expected: float  # places the density expects inside
    half_km: float


def draw(density: Density, per_tier: int, smallest: int, seed: int = 38) -> list[BoxSpec]:
    """``per_tier`` box specs per tier, centred where places are; every third one with a population
    floor that leaves the box at most a quarter of the world at ``smallest`` places."""
    rng, cities, found = np.random.default_rng(seed), density.cities, []
    kept = {f: density.population_share(f, None) for f in FLOORS}
    for tier in TIERS:
        for n in range(per_tier):
            city = int(rng.integers(len(cities)))
            latitude = float(
                np.clip(cities.latitude[city] + rng.standard_normal() * density.spread_lat[city], -89, 89)
            )
            longitude = float(
                (cities.longitude[city] + rng.standard_normal() * density.spread_lon[city] + 180) % 360 - 180
            )
            floors = [f for f in FLOORS if smallest * kept[f] >= 4 * tier]
            floor = int(rng.choice(floors)) if floors and n % 3 == 2 else None
            found.append(BoxSpec(tier, latitude, longitude, floor))
    return found


def _rounded(value: float) -> Decimal:
    return Decimal(f"{value:.{COORDINATE_SCALE}f}")


def _bounds(
    spec: BoxSpec, half_km: float
) -> tuple[tuple[float, float, float, float], dict[str, tuple[Any, Any]]]:
    """The box ``half_km`` around the centre: (south, north, west, east) and its search bounds."""
    reach = half_km / KM_PER_DEGREE
    across = reach / max(math.cos(math.radians(spec.latitude)), LON_COS_FLOOR)
    south, north = max(-90.0, spec.latitude - reach), min(90.0, spec.latitude + reach)
    if across >= 180:
        west, east = -180.0, 180.0
    else:  # across the antimeridian: west > east, as the API takes it
        west, east = (spec.longitude - across + 540) % 360 - 180, (spec.longitude + across + 540) % 360 - 180
    box = (float(_rounded(south)), float(_rounded(north)), float(_rounded(west)), float(_rounded(east)))
    bounds: dict[str, tuple[Any, Any]] = {
        "latitude": (_rounded(south), _rounded(north)),
        "longitude": (_rounded(west), _rounded(east)),
    }
    if spec.floor is not None:
        bounds["population"] = (spec.floor, None)
    return box, bounds


def sized(density: Density, spec: BoxSpec, places: int) -> Box | None:
    """The spec's box for ``places`` places (None: even the whole world expects fewer than its tier)."""
    kept = density.population_share(spec.floor, None) if spec.floor is not None else 1.0
    wanted = spec.tier / places / kept

    def share(half_km: float) -> float:
        box, _ = _bounds(spec, half_km)
        return density.share(box, density.near(spec.latitude, spec.longitude, half_km))

    low, high = math.log(_SMALLEST_KM), math.log(_LARGEST_KM)
    if share(_LARGEST_KM) < wanted:
        return None
    for _ in range(32):  # bisection on the log of the half-width: to a few parts in 10^8
        middle = (low + high) / 2
        low, high = (middle, high) if share(math.exp(middle)) < wanted else (low, middle)
    half = math.exp(high)
    _, bounds = _bounds(spec, half)
    return Box(spec, bounds, share(half) * places * kept, half)


def world(density: Density, places: int) -> tuple[dict[str, tuple[Any, Any]], float]:
    """The world's places of a million or more, and how many the density expects."""
    return {"population": (WORLD, None)}, places * density.population_share(WORLD, None)
