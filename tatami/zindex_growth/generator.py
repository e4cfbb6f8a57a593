"""Places that grow like the real ones: any number of them, clustered as cities500's cities are.

Each place picks a city of cities500 (each as likely as the others, so the places' density follows the
cities' own clustering at every scale), lies around it at a normal distance of the city's spread
(:mod:`tatami.zindex_growth.cities`) in each direction, and takes the population of another city drawn
the same way, times a log-normal factor (sigma 0.25) so that values rarely repeat: the population
distribution (heavy tail, one in ten at zero) is cities500's. Coordinates have 5 decimals (about a
metre), as GeoNames' do.

:class:`Density` is the same distribution in closed form: the share of all places a box expects, which
is how the workload keeps a box's expected result count as the places grow.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import ndtr

from tatami.zindex_growth.cities import KM_PER_DEGREE, Cities

__all__ = ["COORDINATE_SCALE", "LON_COS_FLOOR", "Density", "Places", "generate"]

COORDINATE_SCALE = 5  # decimals of latitude and longitude
POPULATION_SPREAD = 0.25  # sigma of the log-normal factor on a drawn population
CHUNK = 4_000_000  # places generated at once (bounds the temporary arrays)
_MIN_COS = 0.01  # a city within half a degree of a pole spreads as if it were that far
LON_COS_FLOOR = 0.02  # a box near a pole is as wide in longitude as at 88.9 degrees


@dataclass(frozen=True)
class Places:
    """Generated places as columns: coordinates in units of 1e-5 degree, the city each grew from."""

    latitude: np.ndarray  # int32
    longitude: np.ndarray  # int32
    population: np.ndarray  # uint32
    city: np.ndarray  # int32: index into the cities

    def __len__(self) -> int:
        return len(self.latitude)


def _degrees(cities: Cities) -> tuple[np.ndarray, np.ndarray]:
    """Each city's spread in degrees of latitude and of longitude."""
    spread = cities.spread_km / KM_PER_DEGREE
    return spread, spread / np.maximum(np.cos(np.radians(cities.latitude)), _MIN_COS)


def _fill(places: Places, cities: Cities, start: int, rng: np.random.Generator) -> None:
    stop, units = min(start + CHUNK, len(places)), 10**COORDINATE_SCALE
    count = stop - start
    city = rng.integers(0, len(cities), count)
    spread_lat, spread_lon = _degrees(cities)
    latitude = np.clip(cities.latitude[city] + rng.standard_normal(count) * spread_lat[city], -90, 90)
    longitude = cities.longitude[city] + rng.standard_normal(count) * spread_lon[city]
    longitude = (longitude + 180) % 360 - 180
    drawn = cities.population[rng.integers(0, len(cities), count)]
    population = np.rint(drawn * np.exp(rng.standard_normal(count) * POPULATION_SPREAD))
    places.latitude[start:stop] = np.rint(latitude * units)
    places.longitude[start:stop] = np.minimum(np.rint(longitude * units), 180 * units - 1)
    places.population[start:stop] = np.minimum(population, 2**32 - 1)
    places.city[start:stop] = city


def generate(count: int, cities: Cities, seed: int = 38) -> Places:
    """``count`` places, the same ones for the same seed (each chunk draws from its own stream)."""
    places = Places(
        np.empty(count, np.int32),
        np.empty(count, np.int32),
        np.empty(count, np.uint32),
        np.empty(count, np.int32),
    )
    for number, start in enumerate(range(0, count, CHUNK)):
        _fill(places, cities, start, np.random.default_rng([seed, number]))
    return places


class Density:
    """The generator's distribution in closed form (a mixture of one normal per city)."""

    def __init__(self, cities: Cities) -> None:
        self.cities = cities
        self.spread_lat, self.spread_lon = _degrees(cities)

    def near(self, latitude: float, longitude: float, reach_km: float) -> np.ndarray:
        """The cities whose places may fall in a box reaching ``reach_km`` from a point (north and south;
        east and west as measured at the point's latitude), six spreads of margin."""
        cities, reach = self.cities, reach_km / KM_PER_DEGREE
        close = np.abs(cities.latitude - latitude) <= reach + 6 * self.spread_lat
        across = reach / max(float(np.cos(np.radians(latitude))), LON_COS_FLOOR)
        if across < 180:
            gap = np.abs((cities.longitude - longitude + 180) % 360 - 180)
            close &= gap <= across + 6 * self.spread_lon
        return np.flatnonzero(close)

    def share(self, box: tuple[float, float, float, float], cities: np.ndarray | None = None) -> float:
        """The share of all places inside ``(south, north, west, east)`` (degrees; ``west > east``
        crosses the antimeridian), from ``cities`` (all when None: the others add nothing)."""
        chosen = np.arange(len(self.cities)) if cities is None else cities
        south, north, west, east = box
        centre, spread = self.cities.latitude[chosen], self.spread_lat[chosen]
        along = ndtr((north - centre) / spread) - ndtr((south - centre) / spread)
        centre, spread = self.cities.longitude[chosen], self.spread_lon[chosen]
        spans = [(west, east)] if west <= east else [(west, 180.0), (-180.0, east)]
        across = sum(
            ndtr((high - centre - shift) / spread) - ndtr((low - centre - shift) / spread)
            for low, high in spans
            for shift in (-360.0, 0.0, 360.0)
        )
        return float(np.sum(along * across)) / len(self.cities)

    def population_share(self, low: float | None, high: float | None) -> float:
        """The share of places whose population lies within ``low..high`` (None: open)."""
        drawn = self.cities.population.astype(np.float64)
        positive = drawn > 0

        def at_least(value: float | None) -> np.ndarray:
            if value is None or value <= 0:
                return np.ones(len(drawn))
            found = np.zeros(len(drawn))
            found[positive] = 1 - ndtr(np.log((value - 0.5) / drawn[positive]) / POPULATION_SPREAD)
            return found

        above_high = (
            at_least(None if high is None else high + 1) if high is not None else np.zeros(len(drawn))
        )
        return float(np.mean(at_least(low) - above_high))
