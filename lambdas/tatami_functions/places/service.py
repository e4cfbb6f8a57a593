"""Places (seed 000): read and replace one place, and search a box of latitude, longitude and
population through the Z-index engine. Each function takes the repository to use, the function's own
(`repository()`) when not given.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from tatami_functions.common.paging import cursor_from, page_body, scope
from tatami_functions.places import repository as storage
from tatami_functions.places.repository import PlacesRepository

Bounds = tuple[float | int | None, float | int | None]


def place(place_id: str, repository: PlacesRepository | None = None) -> dict[str, Any]:
    """One place; PlaceNotFoundError (a 404) if there is none."""
    table = repository or storage.repository()
    return table.shown(table.get(place_id))


def replace(
    place_id: str, attributes: dict[str, Any], repository: PlacesRepository | None = None
) -> dict[str, Any]:
    """Replace a place's attributes; the indexes follow within about a second (the stream maintainer)."""
    table = repository or storage.repository()
    return table.shown(table.put(place_id, attributes))


def search(
    latitude: Bounds,
    longitude: Bounds,
    population: Bounds,
    limit: int,
    token: str | None,
    with_plan: bool,
    repository: PlacesRepository | None = None,
) -> dict[str, Any]:
    """The places inside a box (inclusive bounds, any open; a longitude range whose low is greater than
    its high crosses the antimeridian), one page, with what the search read and the plan chosen."""
    bounds = {
        "latitude": _decimals(latitude),
        "longitude": _decimals(longitude),
        "population": _decimals(population),
    }
    token_scope = scope("places.search", **bounds)
    page = (repository or storage.repository()).search(
        bounds, limit, cursor_from(token, token_scope), with_plan
    )
    return page_body(page.items, page.cursor, token_scope, **page.details())


def _decimals(bounds: Bounds) -> tuple[Decimal | None, Decimal | None]:
    """Bounds as the engine compares them: decimals through their shortest repr (35.6 stays 35.6)."""
    low, high = (None if v is None else Decimal(repr(v)) for v in bounds)
    return low, high
