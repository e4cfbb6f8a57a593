"""Routes of the places service: ``PUT/GET /places/{id}`` and ``GET /places/search``.

Each route validates its input (400 naming the field) and calls one plain function.
"""

from __future__ import annotations

from decimal import Decimal
from http import HTTPStatus
from typing import Annotated, Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Body, Path, Query

from common.api import create_resolver, json_response
from places import repository, search
from places.exceptions import BadQueryError, PlaceNotFoundError
from places.models import (
    DEFAULT_LIMIT,
    ID_PATTERN,
    MAX_LIMIT,
    MAX_POPULATION,
    PlaceIn,
    PlaceOut,
    SearchOut,
)
from places.query import SearchRequest
from places.settings import settings

app = create_resolver()

PlaceId = Annotated[str, Path(pattern=ID_PATTERN, description="Any id of letters, digits and _.:-")]
LatitudeQ = Annotated[float | None, Query(ge=-90, le=90, allow_inf_nan=False)]
LongitudeQ = Annotated[float | None, Query(ge=-180, le=180, allow_inf_nan=False)]
PopulationQ = Annotated[int | None, Query(ge=0, le=MAX_POPULATION)]


@app.exception_handler(BadQueryError)
def _bad_query(exc: BadQueryError) -> Response[Any]:
    message = str(exc).split(": ", 1)[-1]
    return json_response(
        HTTPStatus.BAD_REQUEST,
        {"message": str(exc), "errors": [{"field": exc.field, "in": "query", "message": message}]},
    )


@app.exception_handler(PlaceNotFoundError)
def _not_found(exc: PlaceNotFoundError) -> Response[Any]:
    return json_response(HTTPStatus.NOT_FOUND, {"message": f"no place with id {exc}"})


def _bounds(low: float | int | None, high: float | int | None) -> tuple[Decimal | None, Decimal | None]:
    return tuple(None if v is None else Decimal(repr(v)) for v in (low, high))  # type: ignore[return-value]


@app.get("/places/search", summary="Places inside a box", response_description="Items in Z order")
def search_places(
    latitude_min: LatitudeQ = None,
    latitude_max: LatitudeQ = None,
    longitude_min: LongitudeQ = None,
    longitude_max: LongitudeQ = None,
    population_min: PopulationQ = None,
    population_max: PopulationQ = None,
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = DEFAULT_LIMIT,
    next: Annotated[str | None, Query(max_length=2048, description="Token of the previous page")] = None,
) -> SearchOut:
    """Bounds are inclusive; any subset may be given. ``longitude_min > longitude_max`` crosses the
    antimeridian (RFC 7946). Results are exact, in Z order, with what the search read and cost."""
    bounds = {
        "latitude": _bounds(latitude_min, latitude_max),
        "longitude": _bounds(longitude_min, longitude_max),
        "population": _bounds(population_min, population_max),
    }
    request = SearchRequest({k: v for k, v in bounds.items() if v != (None, None)}, frozenset({"longitude"}))
    return SearchOut.model_validate(search.search(request, limit, next))


@app.get("/places/<id>", summary="One place")
def get_place(id: PlaceId) -> PlaceOut:
    return PlaceOut.model_validate(search.public(repository.get_place(settings(), id), settings()))


@app.put("/places/<id>", summary="Create or replace a place")
def put_place(id: PlaceId, place: Annotated[PlaceIn, Body()]) -> PlaceOut:
    """Replaces the place's attributes; the index follows within about a second (the stream maintainer)."""
    stored = repository.put_place(settings(), id, place.attributes())
    return PlaceOut.model_validate(search.public(stored, settings()))
