"""Where a business is: `Country:State:City`, whole or absent, and the levels a drill-down names.

The location key joins the three levels with ':', so no level may contain one. A listing has a whole
location or none (an online shop): a partial one could never be found level by level.
"""

from __future__ import annotations

LEVELS = ("Country", "State", "City")
SEPARATOR = ":"
# What `location_levels` takes, for the document: one to three levels, each with a character that
# is not a space, joined by ':'.
_LEVEL = r"[^:]*[^:\s][^:]*"
LOCATION_PATTERN = rf"^{_LEVEL}(?::{_LEVEL}){{0,{len(LEVELS) - 1}}}$"


def location_levels(location: str) -> tuple[str, ...]:
    """`USA:Washington` as its levels; ValueError if it is empty, too deep or has an empty level
    (exactly what LOCATION_PATTERN refuses).

    >>> location_levels("USA:Washington")
    ('USA', 'Washington')
    >>> import re; bool(re.match(LOCATION_PATTERN, "USA: :Seattle")), bool(re.match(LOCATION_PATTERN, "USA"))
    (False, True)
    """
    parts = tuple(part.strip() for part in location.split(SEPARATOR))
    if len(parts) > len(LEVELS) or not all(parts):
        raise ValueError(f"expected Country[:State[:City]] with no empty level, got {location!r}")
    return parts


def location_key(levels: tuple[str, ...]) -> str:
    """The levels as the index's sort key (or its prefix, for fewer than three).

    >>> location_key(("USA", "California", "PaloAlto"))
    'USA:California:PaloAlto'
    """
    return SEPARATOR.join(levels)


def location_fields(key: str) -> dict[str, str]:
    """A stored location key as its Country, State and City.

    >>> location_fields("USA:Washington:Seattle")["State"]
    'Washington'
    """
    return dict(zip(LEVELS, key.split(SEPARATOR), strict=True))
