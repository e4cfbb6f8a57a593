"""Errors of the carts service; SDK errors become these at the repository boundary."""

from __future__ import annotations

from tatami_functions.common.dependencies import DependencyError
from tatami_functions.common.errors import ItemNotFoundError


class CartsError(Exception):
    """Base class of the service's errors."""


class CartNotFoundError(CartsError, ItemNotFoundError):
    """The user has no cart, the cart no such item, or the item no such field."""


class CartsUnavailableError(CartsError, DependencyError):
    """DynamoDB failed a call (throttled, unreachable, too slow or refusing): the API answers 503."""
