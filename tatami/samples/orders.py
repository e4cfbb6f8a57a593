"""Sample data of the orders service, placed through its repository.

Seed 002 describes the table but lists no orders, so 240 orders of 12 customers are generated (fixed
random seed, dated over the last 60 days): enough for the composite sort key ("PENDING and older than
five days"), the ten status shards and several pages.
"""

from __future__ import annotations

import itertools
import random
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from tatami.target import cloud_target
from tatami_functions import stack_outputs

if TYPE_CHECKING:
    from tatami.local.cloud import LocalCloud
    from tatami.samples import LoadProgress

ORDER_COUNT, CUSTOMER_COUNT, DAYS = 240, 12, 60
_FIVE_DAYS_AGO = (datetime.now(UTC) - timedelta(days=5)).strftime("%Y-%m-%d")
EXAMPLES = (
    "/customers/customer-01/orders?limit=5",
    f"/customers/customer-01/orders?status=PENDING&before={_FIVE_DAYS_AGO}",
    "/orders?status=PENDING&limit=5",
)


def generated_orders(now: datetime, count: int = ORDER_COUNT, seed: int = 2) -> list[dict[str, Any]]:
    """Orders oldest first; recent ones still PENDING or ORDERED, older ones mostly delivered.

    >>> orders = generated_orders(datetime(2024, 6, 1, tzinfo=UTC), count=3)
    >>> [o["OrderId"] for o in orders]
    ['order-0001', 'order-0002', 'order-0003']
    """
    rng = random.Random(seed)
    ages = sorted((rng.uniform(0, DAYS) for _ in range(count)), reverse=True)
    orders = []
    for n, age in enumerate(ages, start=1):
        date = (now - timedelta(days=age)).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        orders.append(
            {
                "OrderId": f"order-{n:04d}",
                "CustomerId": f"customer-{rng.randint(1, CUSTOMER_COUNT):02d}",
                "OrderDate": date,
                "Status": _status(age, rng),
                "Total": Decimal(rng.randint(500, 50_000)) / 100,
            }
        )
    return orders


def _status(age_days: float, rng: random.Random) -> str:
    # Some orders stay PENDING for over five days: the seed's "pending and older than 5 days" question.
    if age_days < 3:
        return rng.choice(["PENDING", "ORDERED"])
    if age_days < 10:
        return rng.choice(["PENDING", "ORDERED", "IN_TRANSIT", "IN_TRANSIT"])
    return rng.choice(["PENDING", "DELIVERED", "DELIVERED", "DELIVERED", "DELIVERED"])


def load(cloud: LocalCloud, progress: LoadProgress) -> str:
    """Place the generated orders, each customer's oldest first; a one-line summary."""
    from tatami_functions.orders.keys import DEFAULT_SHARDS  # what the stack deploys
    from tatami_functions.orders.repository import OrdersRepository
    from tatami_functions.orders.settings import OrdersTables

    target = cloud_target(cloud)
    tables = OrdersTables(
        target.output(stack_outputs.OUTPUT_ORDERS_TABLE),
        target.output(stack_outputs.OUTPUT_CUSTOMERS_TABLE),
        DEFAULT_SHARDS,
    )
    orders, placed = OrdersRepository(tables, target.client("dynamodb")), generated_orders(datetime.now(UTC))
    by_customer: dict[str, list[dict[str, Any]]] = {}
    for order in placed:
        by_customer.setdefault(order["CustomerId"], []).append(order)
    counter = itertools.count(1)  # next() is atomic: the threads share it

    def place_all(customer_orders: list[dict[str, Any]]) -> None:
        # One customer's orders oldest first, so the summary ends on the latest; customers in parallel.
        rng = random.Random(customer_orders[0]["CustomerId"])
        for order in customer_orders:
            orders.place(order, rng.randint(1, DEFAULT_SHARDS))
            progress(next(counter), len(placed))

    with ThreadPoolExecutor(max_workers=6) as pool:
        list(pool.map(place_all, by_customer.values()))
    return f"{len(placed)} orders of {CUSTOMER_COUNT} customers"
