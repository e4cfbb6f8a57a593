"""Errors of the places service, each with a home: the repository translates SDK errors into these.

Search errors come from the engine (``zindex.BadQueryError``: a 400 naming the field).
"""

from __future__ import annotations

from tatami_functions.common.dependencies import DependencyError


class PlacesError(Exception):
    """Base class of the service's errors."""


class PlaceNotFoundError(PlacesError):
    """No place has this id (the API answers 404)."""


class PlacesUnavailableError(PlacesError, DependencyError):
    """DynamoDB failed a call (throttled, unreachable, too slow or refusing): the API answers 503."""
