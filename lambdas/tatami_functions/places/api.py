"""Routes of the places service: ``PUT/GET /places/{id}`` and ``GET /places/search``.

Each route validates its input (400 naming the field) and calls one function of the service.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Annotated

from aws_lambda_powertools.event_handler.openapi.params import Body, Path, Query

from tatami_functions.common.api import answer_errors, create_resolver
from tatami_functions.common.paging import DEFAULT_LIMIT, Limit, NextToken
from tatami_functions.places import service
from tatami_functions.places.schemas import (
    ID_PATTERN,
    LatitudeQ,
    LongitudeQ,
    PlaceIn,
    PlaceOut,
    PopulationQ,
    SearchOut,
)
from zindex import BadQueryError

app = create_resolver("places")

PlaceId = Annotated[str, Path(pattern=ID_PATTERN, description="Any id of letters, digits and _.:-")]


# The engine's BadQueryError reads "<parameter>: <reason>": a 400 naming the parameter.
answer_errors(app, {BadQueryError: (HTTPStatus.BAD_REQUEST, "{exc}")})


@app.get("/places/search", summary="Places inside a box", response_description="Items in index order")
def search_places(
    latitude_min: LatitudeQ = None,
    latitude_max: LatitudeQ = None,
    longitude_min: LongitudeQ = None,
    longitude_max: LongitudeQ = None,
    population_min: PopulationQ = None,
    population_max: PopulationQ = None,
    limit: Limit = DEFAULT_LIMIT,
    next_: NextToken = None,
    explain: Annotated[bool, Query(description="Also return every candidate plan with its estimate")] = False,
) -> SearchOut:
    """Bounds are inclusive; any subset may be given. ``longitude_min > longitude_max`` crosses the
    antimeridian (RFC 7946). Results are exact, with what the search read and cost, the plan the
    optimizer chose among the table's indexes and its estimate."""
    page = service.search(
        (latitude_min, latitude_max),
        (longitude_min, longitude_max),
        (population_min, population_max),
        limit,
        next_,
        explain,
    )
    return SearchOut.model_validate(page)


@app.get("/places/<id>", summary="One place")
def get_place(id: PlaceId) -> PlaceOut:
    return PlaceOut.model_validate(service.place(id))


@app.put("/places/<id>", summary="Create or replace a place")
def put_place(id: PlaceId, place: Annotated[PlaceIn, Body()]) -> PlaceOut:
    """Replaces the place's attributes; the indexes follow within about a second (the stream maintainer)."""
    return PlaceOut.model_validate(service.replace(id, place.attributes()))
