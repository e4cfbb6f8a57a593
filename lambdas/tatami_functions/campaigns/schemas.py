"""Request bodies and parameter types of the campaigns routes."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from tatami_functions.common.prefectures import Prefecture

Month = Annotated[int, Field(ge=1, le=12)]


class ProfileIn(BaseModel):
    """Body of `PUT /campaigns/users/{id}`: a missing value keeps the user out of that index."""

    model_config = ConfigDict(extra="forbid")

    prefecture: Prefecture | None = None
    birth_month: Month | None = None
    last_order_month: Month | None = None
