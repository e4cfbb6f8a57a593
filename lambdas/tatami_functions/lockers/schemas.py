"""Request bodies and parameter types of the lockers routes."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, StringConstraints, WithJsonSchema

from tatami_functions.common.prefectures import Prefecture
from tatami_functions.common.text import stripped
from tatami_functions.lockers.locations import MAX_LEVELS, normalize_location

LockerId = Annotated[str, StringConstraints(pattern=r"^[\w.-]{1,64}$")]
Text = Annotated[str, stripped(200)]

# What normalize_location accepts, for the OpenAPI document: 1 to 4 levels of at most 40 characters,
# each with a character that is not a space, between '#' or '/'.
_LEVEL = r"[^#/]{0,19}[^#/\s][^#/]{0,20}"
LOCATION_PATTERN = rf"^{_LEVEL}(?:[#/]{_LEVEL}){{0,{MAX_LEVELS - 1}}}$"
Location = Annotated[
    str,
    AfterValidator(normalize_location),
    WithJsonSchema({"type": "string", "pattern": LOCATION_PATTERN, "description": "e.g. 千代田区#紀尾井町"}),
]


class LockerIn(BaseModel):
    """Body of `PUT /lockers/{locker_id}`: where it is (prefecture and location path) and what it is."""

    model_config = ConfigDict(extra="forbid")

    state: Prefecture
    location: Location
    name: Text
    address: Text
