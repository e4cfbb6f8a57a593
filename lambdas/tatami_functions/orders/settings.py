"""The orders function's settings (infra/services/orders.py sets them; the engine's declaration for
``GET /orders/search`` comes with the ZOrderIndex's grant)."""

from __future__ import annotations

from tatami_functions.common.settings import Settings, variable
from tatami_functions.orders import keys


class OrdersTables(Settings):
    """The orders and customers tables, and N of the StatusOrders GSI (readers query 1..N: only raise it)."""

    orders: str = variable("ORDERS_TABLE_NAME")
    customers: str = variable("CUSTOMERS_TABLE_NAME")
    shards: int = variable("ORDERS_STATUS_SHARDS", int, default=keys.DEFAULT_SHARDS)

    def __post_init__(self) -> None:
        if not 1 <= self.shards <= keys.MAX_SHARDS:
            name = self.name_of("shards")
            raise ValueError(f"{name} {self.shards} must be within 1..{keys.MAX_SHARDS}")
