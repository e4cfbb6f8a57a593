"""Errors of the places service, each with a home: the repository translates SDK errors into these.

Search errors come from the engine (``zindex.BadQueryError``: a 400 naming the field).
"""

from __future__ import annotations

from tatami_functions.common.dependencies import DependencyError
from tatami_functions.common.errors import ItemNotFoundError


class PlacesError(Exception):
    """Base class of the service's errors."""


class PlaceNotFoundError(PlacesError, ItemNotFoundError):
    """No place has this id (the API answers 404)."""

    def __init__(self, place_id: str) -> None:
        super().__init__(f"no place with id {place_id}")


class PlacesUnavailableError(PlacesError, DependencyError):
    """DynamoDB failed a call (throttled, unreachable, too slow or refusing): the API answers 503."""
