"""A business listing (seed 002's Business table) and the location it is found by.

The location key is `Country:State:City`, so no level may contain ':'. A listing has a whole
location or none (an online shop): a partial one could never be found level by level.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator
from pydantic.config import JsonValue

LEVELS = ("Country", "State", "City")
SEPARATOR = ":"
ID_PATTERN = r"^[A-Za-z0-9_.-]{1,64}$"
TYPE_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"  # e.g. CoffeeShop: a partition key, matched exactly
Level = Annotated[str, StringConstraints(strip_whitespace=True, max_length=100, pattern=r"^[^:#]*$")]
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
        parts = [getattr(self, level) for level in LEVELS]
        return SEPARATOR.join(parts) if all(parts) else None


def location_levels(location: str) -> tuple[str, ...]:
    """`USA:Washington` as its levels; ValueError if it is empty, too deep or has an empty level.

    >>> location_levels("USA:Washington")
    ('USA', 'Washington')
    """
    parts = tuple(part.strip() for part in location.split(SEPARATOR))
    if len(parts) > len(LEVELS) or not all(parts):
        raise ValueError(f"expected Country[:State[:City]] with no empty level, got {location!r}")
    return parts
