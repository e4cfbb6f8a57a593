"""The engine's errors; a service maps them onto its HTTP answers (a BadQueryError is a 400)."""

from __future__ import annotations

__all__ = ["BadQueryError", "StaleImageError", "StatisticsError", "UnencodableError", "ZIndexError"]


class ZIndexError(Exception):
    """Base class of the engine's errors."""


class BadQueryError(ZIndexError):
    """A search that cannot be answered; ``field`` names the parameter to fix.

    >>> str(BadQueryError("latitude_min", "35 is greater than latitude_max 34"))
    'latitude_min: 35 is greater than latitude_max 34'
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.reason = message


class UnencodableError(ZIndexError):
    """An item's attribute cannot be ordered (NaN, wrong type, out of range): it stays unindexed."""


class StaleImageError(ZIndexError):
    """A conditional write lost to a newer write of the same item; that write's stream record wins."""


class StatisticsError(ZIndexError):
    """The statistics item is missing or unreadable (plans then use uniform estimates)."""
