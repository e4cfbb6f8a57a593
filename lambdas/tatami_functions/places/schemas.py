"""What the places routes accept and answer: a place, its id, the search bounds, a search page
(validated: errors name the field)."""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any

from aws_lambda_powertools.event_handler.openapi.params import Query
from pydantic import BaseModel, ConfigDict, Field

from tatami_functions.common.json_numbers import whole_numbers
from tatami_functions.places.table import MAX_POPULATION
from zindex.dynamojson import storable

ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$"  # ids starting with '_' are reserved (statistics)

Latitude = Annotated[
    float, Field(ge=-90, le=90, strict=True, allow_inf_nan=False, description="Degrees north")
]
Longitude = Annotated[
    float, Field(ge=-180, le=180, strict=True, allow_inf_nan=False, description="Degrees east")
]
Population = Annotated[int, Field(ge=0, le=MAX_POPULATION, strict=True, description="Inhabitants")]
# The search's bounds, as query parameters
LatitudeQ = Annotated[float | None, Query(ge=-90, le=90, allow_inf_nan=False)]
LongitudeQ = Annotated[float | None, Query(ge=-180, le=180, allow_inf_nan=False)]
PopulationQ = Annotated[int | None, Query(ge=0, le=MAX_POPULATION)]


class PlaceIn(BaseModel):
    """The body of ``PUT /places/{id}``; every field but ``country`` is required.

    >>> PlaceIn(name="Tokyo", latitude=35.6895, longitude=139.69171, population=8336599).population
    8336599
    """

    model_config = ConfigDict(extra="forbid")

    name: Annotated[str, Field(min_length=1, max_length=256, strict=True)]
    latitude: Latitude
    longitude: Longitude
    population: Population
    country: Annotated[str | None, Field(pattern=r"^[A-Z]{2}$", description="ISO 3166-1 alpha-2 code")] = None
    _whole = whole_numbers("population")

    def attributes(self) -> dict[str, Any]:
        """The item's attributes, numbers as DynamoDB decimals (through their shortest repr; a
        coordinate closer to 0 than DynamoDB's smallest number, 1E-130, is stored as 0)."""
        return {
            "name": self.name,
            "latitude": storable(Decimal(repr(self.latitude))),
            "longitude": storable(Decimal(repr(self.longitude))),
            "population": self.population,
            "country": self.country,
        }


class PlaceOut(BaseModel):
    id: str
    name: str | None = None
    latitude: float | None = None
    longitude: float | None = None
    population: int | None = None
    country: str | None = None


class EstimateOut(BaseModel):
    items_read: float
    items_returned: float
    queries: float
    consumed_rcu: float


class SearchStatsOut(BaseModel):
    items_read: int
    items_returned: int
    queries: int
    consumed_rcu: float
    index: str | None = Field(None, description="The index the plan reads (null: the table)")
    plan: str | None = Field(None, description="The plan the optimizer chose")
    estimate: EstimateOut | None = Field(None, description="The plan's estimate for the whole search")
    index_lag_seconds: float = Field(0.0, description="How far behind the writes the indexes may be")


class PlanRowOut(BaseModel):
    plan: str
    kind: str
    index: str | None
    cost: float
    chosen: bool
    estimate: EstimateOut
    ranges: list[tuple[str, str]] | None = Field(None, description="The chosen Z plan's address ranges (hex)")


class SearchOut(BaseModel):
    items: list[PlaceOut]
    next: str | None
    stats: SearchStatsOut
    plan: list[PlanRowOut] | None = Field(None, description="With explain=true: every candidate plan")
