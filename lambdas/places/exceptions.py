"""Errors of the places service, each with a home: the repository translates SDK errors into these."""

from __future__ import annotations


class PlacesError(Exception):
    """Base class of the service's errors."""


class PlaceNotFoundError(PlacesError):
    """No place has this id (the API answers 404)."""


class StaleImageError(PlacesError):
    """A conditional write lost to a newer write of the same item; that write's stream record wins."""


class UnencodableError(PlacesError):
    """An item's indexed values cannot be encoded (NaN, wrong type, out of range); it stays unindexed."""


class BadQueryError(PlacesError):
    """A search query that cannot be answered; the message names the field (the API answers 400)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


class StatisticsError(PlacesError):
    """The planner statistics item is missing or unreadable (search falls back to uniform estimates)."""
