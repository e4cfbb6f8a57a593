"""Routes of the businesses model (seed 002): list by type and location, read and write a listing."""

from __future__ import annotations

from typing import Annotated, Any

from aws_lambda_powertools.event_handler.exceptions import BadRequestError
from aws_lambda_powertools.event_handler.openapi.params import Body, Path, Query

from tatami_functions.businesses import service
from tatami_functions.businesses.locations import LOCATION_PATTERN, location_levels
from tatami_functions.businesses.schemas import ID_PATTERN, TYPE_PATTERN, Business
from tatami_functions.common.api import create_resolver
from tatami_functions.common.keys import SORT_KEY_BYTES, utf8_at_most
from tatami_functions.common.paging import DEFAULT_LIMIT, Limit, NextToken

app = create_resolver("businesses")

LocationPrefix = Annotated[str, utf8_at_most(SORT_KEY_BYTES)]  # a prefix of the index's sort key
Id = Annotated[str, Path(pattern=ID_PATTERN, description="Letters, digits, '_', '.', '-' (1..64)")]


@app.get("/businesses", summary="Businesses of a type, drilled down by Country[:State[:City]]")
def list_businesses(
    type: Annotated[str, Query(pattern=TYPE_PATTERN, description="BusinessType, e.g. CoffeeShop")],
    location: Annotated[
        LocationPrefix | None,
        Query(
            max_length=310,
            description="e.g. USA:Washington",
            json_schema_extra={"pattern": LOCATION_PATTERN},  # `location_levels` says why it refuses
        ),
    ] = None,
    limit: Limit = DEFAULT_LIMIT,
    next_: NextToken = None,
) -> dict[str, Any]:
    try:
        levels = location_levels(location) if location is not None else ()
    except ValueError as exc:
        raise BadRequestError(f"location: {exc}") from None
    return service.by_location(type, levels, limit, next_)


@app.get("/businesses/<id>", summary="One business listing (GetItem)")
def get_business(id: Id) -> dict[str, Any]:
    return service.business(id)


@app.put("/businesses/<id>", summary="Create or replace a listing; without a location it is not indexed")
def put_business(id: Id, business: Annotated[Business, Body()]) -> dict[str, Any]:
    return service.save(id, business)
