"""The candidate query's conditions: which profile values a campaign asks for.

The seed's example: a Christmas sticker for users shipping to 千葉県, born in December, ordering in
December.

The seed gives each condition its own GSI (shipping prefecture, birth month, last order month), the
opposite of overloading: a static reverse lookup from a value to the users who have it. Any subset
of the conditions can then be combined at read time; one composite index ("千葉県#12#12") would be
cheaper for exactly that campaign and useless for the next one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# The query parameters a candidate search takes, in the order the indexes are read.
CONDITIONS = ("prefecture", "birth_month", "order_month")


@dataclass(frozen=True, slots=True)
class Condition:
    """One condition: the query parameter (which names its index) and the value asked of it."""

    name: str
    value: str | int


def conditions(**values: Any) -> list[Condition]:
    """The conditions given (None = not asked), in the order of CONDITIONS.

    >>> [c.name for c in conditions(prefecture="千葉県", birth_month=None, order_month=12)]
    ['prefecture', 'order_month']
    """
    return [Condition(name, values[name]) for name in CONDITIONS if values.get(name) is not None]
