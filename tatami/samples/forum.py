"""Sample data of the seed 001/002 models, written through the models' own repositories.

- Forum: the Forum, Thread and Reply items exactly as seed 001 prints them (data/seed_001_forum.json).
- Businesses: seed 002's three GSI records, plus demo listings that make each drill-down level
  answer (Seattle, Spokane vs Spokane Valley, Tokyo) and one online shop left out of the sparse index.
- Orders: seed 002 describes the table but lists no orders, so 240 orders of 12 customers are
  generated (fixed random seed, dated over the last 60 days): enough for the composite sort key
  ("PENDING and older than five days"), the ten status shards and several pages.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tatami.target import cloud_target
from tatami_functions import stack_outputs

if TYPE_CHECKING:
    from tatami.local.cloud import LocalCloud
    from tatami.samples import LoadProgress
    from tatami.target import Target

DATA = Path(__file__).resolve().parent / "data"
ORDER_COUNT, CUSTOMER_COUNT, DAYS = 240, 12, 60


@cache
def forum_items() -> dict[str, list[dict[str, Any]]]:
    """Seed 001's items by table: {"Forum": [...], "Thread": [...], "Reply": [...]}."""
    data = json.loads((DATA / "seed_001_forum.json").read_text(encoding="utf-8"))
    return {table: data[table] for table in ("Forum", "Thread", "Reply")}


@cache
def business_data() -> dict[str, Any]:
    """Seed 002's Business records (`seed`), its three queries (`queries`) and the `demo` listings."""
    data: dict[str, Any] = json.loads((DATA / "seed_002_businesses.json").read_text(encoding="utf-8"))
    return data


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
    """Write every sample item through the models' repositories into the cloud's tables."""
    target = cloud_target(cloud)
    client = target.client("dynamodb")
    items, listings = forum_items(), [*business_data()["seed"], *business_data()["demo"]]
    placed = generated_orders(datetime.now(UTC))
    total = sum(map(len, items.values())) + len(listings) + len(placed)
    load_forum(target, client, items)
    _load_businesses(target, client, listings)
    progress(total - len(placed), total)
    _load_orders(target, client, placed, lambda done: progress(total - len(placed) + done, total))
    return (
        f"forum: {len(items['Forum'])} forums, {len(items['Thread'])} threads, "
        f"{len(items['Reply'])} replies; {len(listings)} businesses; "
        f"{len(placed)} orders of {CUSTOMER_COUNT} customers"
    )


# The repositories are imported when a load runs, so the CLI's other commands start without them.
def load_forum(target: Target, client: Any, items: dict[str, list[dict[str, Any]]]) -> None:
    from tatami_functions.forum.repository import ForumRepository
    from tatami_functions.forum.settings import ForumTables

    tables = ForumTables(*(target.output(key) for key in FORUM_OUTPUTS))
    forum = ForumRepository(tables, client)
    for table, save in (
        ("Forum", forum.save_forum),
        ("Thread", forum.save_thread),
        ("Reply", forum.save_reply),
    ):
        for item in items[table]:
            save(item)


def _load_businesses(target: Target, client: Any, listings: list[dict[str, Any]]) -> None:
    from tatami_functions.businesses.repository import BusinessesRepository
    from tatami_functions.businesses.schemas import Business

    businesses = BusinessesRepository(target.output(stack_outputs.OUTPUT_BUSINESSES_TABLE), client)
    for listing in listings:
        fields = {key: value for key, value in listing.items() if key != "BusinessId"}
        businesses.save(listing["BusinessId"], Business(**fields))


def _load_orders(
    target: Target, client: Any, placed: list[dict[str, Any]], done: Callable[[int], None]
) -> None:
    from tatami_functions.orders.keys import DEFAULT_SHARDS  # what the stack deploys
    from tatami_functions.orders.repository import OrdersRepository
    from tatami_functions.orders.settings import OrdersTables

    tables = OrdersTables(
        target.output(stack_outputs.OUTPUT_ORDERS_TABLE),
        target.output(stack_outputs.OUTPUT_CUSTOMERS_TABLE),
        DEFAULT_SHARDS,
    )
    orders = OrdersRepository(tables, client)
    by_customer: dict[str, list[dict[str, Any]]] = {}
    for order in placed:
        by_customer.setdefault(order["CustomerId"], []).append(order)
    counter = itertools.count(1)

    def place_all(customer_orders: list[dict[str, Any]]) -> None:
        # One customer's orders oldest first, so the summary ends on the latest; customers in parallel.
        rng = random.Random(customer_orders[0]["CustomerId"])
        for order in customer_orders:
            orders.place(order, rng.randint(1, DEFAULT_SHARDS))
            done(next(counter))

    with ThreadPoolExecutor(max_workers=6) as pool:
        list(pool.map(place_all, by_customer.values()))


FORUM_OUTPUTS = (
    stack_outputs.OUTPUT_FORUMS_TABLE,
    stack_outputs.OUTPUT_THREADS_TABLE,
    stack_outputs.OUTPUT_REPLIES_TABLE,
)
_FIVE_DAYS_AGO = (datetime.now(UTC) - timedelta(days=5)).strftime("%Y-%m-%d")

NAME = "forum, orders, businesses (seeds 001, 002)"
EXAMPLES = (
    "/forums",
    "/forums/DynamoDB/threads",
    "/forums/DynamoDB/threads/DynamoDB%20Thread%201/replies"
    "?from=2011-12-15T00:00:00.000Z&to=2011-12-31T23:59:59.999Z",
    "/customers/customer-01/orders?limit=5",
    f"/customers/customer-01/orders?status=PENDING&before={_FIVE_DAYS_AGO}",
    "/orders?status=PENDING&limit=5",
    "/businesses?type=CoffeeShop&location=USA",
    "/businesses?type=Restaurant&location=USA:Washington",
)
