"""Moments as keys store them: one fixed-width text per instant, checked where it enters.

Sort keys compare as text, so every time a key or a range holds has exactly one form, whatever
offset or precision it arrived with: UTC, milliseconds, `Z`, a four-digit year
(`0999-06-01T00:00:00.000Z`, 24 characters: text order is time order). The years are 0001 to 9999
in UTC, what that form can write: a request time outside them (`0001-01-01T00:00:00+09:00` is year
0 in UTC) is refused at the boundary by the `Instant` types, as a 400 naming its field. What the API
returns parses back to the same instant, so a `created_at` it answered can be sent again.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Annotated

from aws_lambda_powertools.event_handler.exceptions import BadRequestError
from pydantic import AfterValidator, AwareDatetime

__all__ = [
    "BEFORE_EVERY_INSTANT",
    "EARLIEST",
    "LATEST",
    "AwareInstant",
    "Instant",
    "bounds",
    "instant",
    "just_before",
]

EARLIEST, LATEST = "0001-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z"
BEFORE_EVERY_INSTANT = "0000-12-31T23:59:59.999Z"  # an upper bound no stored instant is under
OUT_OF_RANGE = f"must lie from {EARLIEST} to {LATEST} in UTC (years 0001-9999)"


def instant(value: datetime, *, round_up: bool = False) -> str:
    """A moment in the stored form (a naive one is taken as UTC); ValueError outside years 0001-9999.

    Stored times have millisecond precision, so a lower bound rounds up and an upper bound down.

    >>> instant(datetime.fromisoformat("2011-12-15T09:00:00+09:00"))
    '2011-12-15T00:00:00.000Z'
    >>> instant(datetime(999, 6, 1, 0, 0, 0, 120999))
    '0999-06-01T00:00:00.120Z'
    """
    try:
        moment = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
        if round_up and moment.microsecond % 1000:
            moment += timedelta(microseconds=1000 - moment.microsecond % 1000)
    except OverflowError:
        raise ValueError(OUT_OF_RANGE) from None
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def just_before(value: datetime) -> str:
    """The last stored instant strictly before `value` (an exclusive bound as an inclusive one).

    >>> just_before(datetime(2024, 1, 6))
    '2024-01-05T23:59:59.999Z'
    >>> just_before(datetime(1, 1, 1)) == BEFORE_EVERY_INSTANT
    True
    """
    bound = instant(value, round_up=True)
    if bound == EARLIEST:
        return BEFORE_EVERY_INSTANT
    return instant(datetime.fromisoformat(bound) - timedelta(milliseconds=1))


def _storable(value: datetime) -> datetime:
    instant(value, round_up=True)  # raises ValueError (pydantic: a 400 naming the field) when outside
    return value


Instant = Annotated[datetime, AfterValidator(_storable)]  # ISO 8601; without an offset, UTC
AwareInstant = Annotated[AwareDatetime, AfterValidator(_storable)]  # ISO 8601 with an offset or Z


def bounds(
    lower: datetime | None, upper: datetime | None, names: tuple[str, str] = ("from", "to")
) -> tuple[str | None, str | None]:
    """Inclusive time bounds as stored instants; a 400 naming the lower bound if they are inverted.

    >>> bounds(datetime(2011, 12, 15), None)
    ('2011-12-15T00:00:00.000Z', None)
    """
    low = instant(lower, round_up=True) if lower is not None else None
    high = instant(upper) if upper is not None else None
    if low is not None and high is not None and low > high:
        raise BadRequestError(f"{names[0]}: {low} is after {names[1]} {high}")
    return low, high
