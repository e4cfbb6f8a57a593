"""Routes of the places service: ``PUT/GET /places/{id}`` and ``GET /places/search``.

Each route validates its input (400 naming the field) and calls one plain function.
"""

from __future__ import annotations

from decimal import Decimal
from http import HTTPStatus
from typing import Annotated

from aws_lambda_powertools.event_handler.openapi.params import Body, Path, Query

from tatami_functions.common import index_search
from tatami_functions.common.api import answer_errors, create_resolver
from tatami_functions.places.exceptions import PlaceNotFoundError
from tatami_functions.places.models import DEFAULT_LIMIT, ID_PATTERN, MAX_LIMIT, PlaceIn, PlaceOut, SearchOut
from tatami_functions.places.repository import environment_table
from tatami_functions.places.schema import MAX_POPULATION

app = create_resolver("places")
index_search.answer_bad_queries(app)
SCOPE = "places-search"

PlaceId = Annotated[str, Path(pattern=ID_PATTERN, description="Any id of letters, digits and _.:-")]
LatitudeQ = Annotated[float | None, Query(ge=-90, le=90, allow_inf_nan=False)]
LongitudeQ = Annotated[float | None, Query(ge=-180, le=180, allow_inf_nan=False)]
PopulationQ = Annotated[int | None, Query(ge=0, le=MAX_POPULATION)]


answer_errors(
    app,
    {
        PlaceNotFoundError: (HTTPStatus.NOT_FOUND, "no place with id {exc}"),
    },
)


def _bounds(low: float | int | None, high: float | int | None) -> tuple[Decimal | None, Decimal | None]:
    return tuple(None if v is None else Decimal(repr(v)) for v in (low, high))  # type: ignore[return-value]


@app.get("/places/search", summary="Places inside a box", response_description="Items in index order")
def search_places(
    latitude_min: LatitudeQ = None,
    latitude_max: LatitudeQ = None,
    longitude_min: LongitudeQ = None,
    longitude_max: LongitudeQ = None,
    population_min: PopulationQ = None,
    population_max: PopulationQ = None,
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = DEFAULT_LIMIT,
    next: Annotated[str | None, Query(max_length=2048, description="Token of the previous page")] = None,
    explain: Annotated[bool, Query(description="Also return every candidate plan with its estimate")] = False,
) -> SearchOut:
    """Bounds are inclusive; any subset may be given. ``longitude_min > longitude_max`` crosses the
    antimeridian (RFC 7946). Results are exact, with what the search read and cost, the plan the
    optimizer chose among the table's indexes and its estimate."""
    request = index_search.query(
        {
            "latitude": _bounds(latitude_min, latitude_max),
            "longitude": _bounds(longitude_min, longitude_max),
            "population": _bounds(population_min, population_max),
        }
    )
    return SearchOut.model_validate(index_search.search_page(request, SCOPE, limit, next, explain))


@app.get("/places/<id>", summary="One place")
def get_place(id: PlaceId) -> PlaceOut:
    return PlaceOut.model_validate(index_search.item(environment_table().get(id)))


@app.put("/places/<id>", summary="Create or replace a place")
def put_place(id: PlaceId, place: Annotated[PlaceIn, Body()]) -> PlaceOut:
    """Replaces the place's attributes; the indexes follow within about a second (the stream maintainer)."""
    return PlaceOut.model_validate(index_search.item(environment_table().put(id, place.attributes())))
