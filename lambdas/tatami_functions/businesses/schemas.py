"""What the businesses routes accept: a listing (seed 002's Business table) and its id and type.

A listing's location is whole or absent (`locations`): the body says so in its schema too.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator
from pydantic.config import JsonValue

from tatami_functions.businesses.locations import LEVELS, location_key
from tatami_functions.common.keys import SORT_KEY_BYTES, utf8_at_most

ID_PATTERN = r"^[A-Za-z0-9_.-]{1,64}$"
TYPE_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"  # e.g. CoffeeShop: a partition key, matched exactly
# The three levels, joined by ':', are the location index's sort key: a third of it each.
Level = Annotated[
    str,
    StringConstraints(strip_whitespace=True, max_length=100, pattern=r"^[^:#]*$"),
    utf8_at_most((SORT_KEY_BYTES - len(LEVELS) + 1) // len(LEVELS)),
]
# A location is whole or absent, and a blank level is an absent one: the document says both (JSON
# Schema's anyOf), so generated requests (schemathesis) meet the rule the validator applies.
WHOLE_OR_NO_LOCATION: list[JsonValue] = [
    {"required": list(LEVELS), "properties": {level: {"pattern": r"\S"} for level in LEVELS}},
    {"properties": {level: {"pattern": r"^\s*$"} for level in LEVELS}},
]
Text = Annotated[str, StringConstraints(strip_whitespace=True, max_length=400)]


class Business(BaseModel):
    """`PUT /businesses/{id}`: the seed's attributes; empty values are treated as absent."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"anyOf": WHOLE_OR_NO_LOCATION})

    BusinessType: str = Field(pattern=TYPE_PATTERN)
    BusinessName: Annotated[
        str, StringConstraints(strip_whitespace=True, min_length=1, max_length=400, pattern=r"\S")
    ]
    BusinessAddress: Text = ""
    PhoneNumber: Annotated[str, StringConstraints(strip_whitespace=True, pattern=r"^[0-9+() -]{0,32}$")] = ""
    Country: Level = ""
    State: Level = ""
    City: Level = ""

    @model_validator(mode="after")
    def _whole_location(self) -> Business:
        given = [bool(getattr(self, level)) for level in LEVELS]
        if any(given) and not all(given):
            missing = next(level for level, present in zip(LEVELS, given, strict=True) if not present)
            raise ValueError(
                f"{missing} is required with {', '.join(LEVELS)} (a location is whole or absent)"
            )
        return self

    def location(self) -> str | None:
        """The index's sort key, or None for a listing without a location (left out of the index).

        >>> Business(BusinessType="CoffeeShop", BusinessName="B", Country="USA", State="California",
        ...          City="PaloAlto").location()
        'USA:California:PaloAlto'
        """
        parts = tuple(getattr(self, level) for level in LEVELS)
        return location_key(parts) if all(parts) else None
