"""Campaign profiles and the candidate query.

The seed's example: a Christmas sticker for users shipping to 千葉県, born in December, ordering in
December.

The seed gives each condition its own GSI (shipping prefecture, birth month, last order month), the
opposite of overloading: a static reverse lookup from a value to the users who have it. Any subset
of the conditions can then be combined at read time; one composite index ("千葉県#12#12") would be
cheaper for exactly that campaign and useless for the next one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from tatami_functions.common.prefectures import Prefecture

Month = Annotated[int, Field(ge=1, le=12)]


class ProfileIn(BaseModel):
    """Body of `PUT /campaigns/users/{id}`: a missing value keeps the user out of that index."""

    model_config = ConfigDict(extra="forbid")

    prefecture: Prefecture | None = None
    birth_month: Month | None = None
    last_order_month: Month | None = None


@dataclass(frozen=True, slots=True)
class Condition:
    """One selective GSI and the value asked of it."""

    name: str  # the query parameter
    index: str
    attribute: str
    value: str | int

    @property
    def typed_value(self) -> dict[str, str]:
        return {"N": str(self.value)} if isinstance(self.value, int) else {"S": self.value}


INDEXES = {
    "prefecture": ("GSI_prefecture", "prefecture"),
    "birth_month": ("GSI_birth_month", "birth_month"),
    "order_month": ("GSI_last_order_month", "last_order_month"),
}


def conditions(**values: Any) -> list[Condition]:
    """The conditions given (None = not asked), in the order of INDEXES.

    >>> [c.index for c in conditions(prefecture="千葉県", birth_month=None, order_month=12)]
    ['GSI_prefecture', 'GSI_last_order_month']
    """
    return [
        Condition(name, index, attribute, values[name])
        for name, (index, attribute) in INDEXES.items()
        if values.get(name) is not None
    ]
