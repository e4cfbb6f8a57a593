"""Errors of the places service, each with a home: the repository translates SDK errors into these.

Search errors come from the engine (``zindex.BadQueryError``: a 400 naming the field).
"""

from __future__ import annotations


class PlacesError(Exception):
    """Base class of the service's errors."""


class PlaceNotFoundError(PlacesError):
    """No place has this id (the API answers 404)."""


class PlacesUnavailableError(PlacesError):
    """DynamoDB did not answer (the API answers 503)."""
