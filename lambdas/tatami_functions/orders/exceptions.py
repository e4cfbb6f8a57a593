"""What the orders model can refuse: unknown orders and customers (404), an order id taken (409), a
failing DynamoDB (503)."""

from __future__ import annotations

from tatami_functions.common.dependencies import DependencyError
from tatami_functions.common.errors import ConflictError, ItemNotFoundError


class OrdersError(Exception):
    """Base of the orders model's errors."""


class OrderNotFoundError(OrdersError, ItemNotFoundError):
    def __init__(self, order_id: str) -> None:
        super().__init__(f"no order {order_id!r}")


class CustomerNotFoundError(OrdersError, ItemNotFoundError):
    def __init__(self, customer_id: str) -> None:
        super().__init__(f"no customer {customer_id!r} (a customer exists once they placed an order)")


class OrderExistsError(OrdersError, ConflictError):
    def __init__(self, order_id: str) -> None:
        super().__init__(f"order {order_id!r} was already placed; GET /orders/{order_id} shows it")


class OrdersUnavailableError(OrdersError, DependencyError):
    """DynamoDB failed a call (throttled, unreachable, too slow or refusing): the API answers 503."""
