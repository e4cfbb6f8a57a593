"""What the businesses model can refuse: an unknown business id (404)."""

from __future__ import annotations


class BusinessesError(Exception):
    """Base of the businesses model's errors."""


class BusinessNotFoundError(BusinessesError, LookupError):
    def __init__(self, business_id: str) -> None:
        super().__init__(f"no business {business_id!r}")
