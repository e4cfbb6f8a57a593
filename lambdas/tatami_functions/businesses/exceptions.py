"""What the businesses model can refuse: an unknown business id (404), a failing DynamoDB (503)."""

from __future__ import annotations

from tatami_functions.common.dependencies import DependencyError
from tatami_functions.common.errors import ItemNotFoundError


class BusinessesError(Exception):
    """Base of the businesses model's errors."""


class BusinessNotFoundError(BusinessesError, ItemNotFoundError):
    def __init__(self, business_id: str) -> None:
        super().__init__(f"no business {business_id!r}")


class BusinessesUnavailableError(BusinessesError, DependencyError):
    """DynamoDB failed a call (throttled, unreachable, too slow or refusing): the API answers 503."""
