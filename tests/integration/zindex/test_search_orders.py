"""The engine on a second table of other types (the Orders table: an instant, an amount, a status):
search equals brute force through every access path, in pages small and large."""

from __future__ import annotations

import random
import uuid
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest

from tatami_functions.orders.table import ORDERS_ZINDEX, TOTAL_CEILING
from tests.support.zindex import brute_force, create_table, search_all, searcher_on, write_indexed
from zindex import IndexedTable, SearchQuery
from zindex.analyze import analyze
from zindex.dynamodb import IndexRepository

STATUSES = ("PENDING", "ORDERED", "IN_TRANSIT", "DELIVERED")
START = datetime(2025, 1, 1, tzinfo=UTC)
PATHS = {
    "z-ranges": lambda p: p.kind == "z-ranges",
    "z-between": lambda p: p.kind == "z-between",
    "z-walk": lambda p: p.kind == "z-walk",
    "scan-index": lambda p: p.kind == "scan" and p.index == "orders-z",
    "scan-table": lambda p: p.kind == "scan" and p.index is None,
}


def instant(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def random_orders(rng: random.Random, count: int) -> list[dict[str, Any]]:
    """Two years of orders, totals log-spread from cents to past the ceiling, the four statuses."""
    return [
        {
            "OrderId": f"o{n}",
            "CustomerId": f"c{rng.randrange(50)}",
            "OrderDate": instant(START + timedelta(minutes=rng.randrange(2 * 365 * 24 * 60))),
            "Status": rng.choice(STATUSES),
            "Total": rng.choice(
                [Decimal(0), Decimal(TOTAL_CEILING), Decimal(str(round(10 ** rng.uniform(-2, 6), 2)))]
            ),
        }
        for n in range(count)
    ]


def random_bounds(rng: random.Random) -> dict[str, tuple[Any, Any]]:
    bounds: dict[str, tuple[Any, Any]] = {}
    for kind in rng.sample(["OrderDate", "Total", "Status"], rng.randint(1, 3)):
        if kind == "OrderDate":
            first = START + timedelta(days=rng.uniform(0, 700))
            bounds[kind] = rng.choice(
                [
                    (instant(first), instant(first + timedelta(days=rng.choice([1, 30, 200])))),
                    (instant(first), None),
                    (None, instant(first)),
                ]
            )
        elif kind == "Total":
            low = Decimal(str(round(10 ** rng.uniform(-1, 5), 2)))
            bounds[kind] = rng.choice(
                [(low, None), (None, low), (low, low * 3), (Decimal(TOTAL_CEILING), None)]
            )
        else:
            status = rng.choice(STATUSES)
            bounds[kind] = (status, status)
    return bounds


@pytest.fixture(scope="module")
def orders(client: Any) -> tuple[IndexedTable, list[dict[str, Any]]]:
    declaration = ORDERS_ZINDEX.named(f"orders-{uuid.uuid4().hex[:8]}")
    create_table(client, declaration)
    items = random_orders(random.Random(21), 2000)
    write_indexed(client, declaration, items)
    analyze(IndexRepository(declaration, client))
    return declaration, items


@pytest.mark.parametrize("path", sorted(PATHS))
def test_every_access_path_equals_brute_force(client: Any, orders: Any, path: str) -> None:
    declaration, items = orders
    rng = random.Random(path)
    for _ in range(4):
        query = SearchQuery(declaration, random_bounds(rng))
        found, _ = search_all(
            searcher_on(client, declaration), query, rng.choice([9, 100, 1000]), PATHS[path]
        )
        assert {i["OrderId"] for i in found} == brute_force(query, items, key="OrderId"), query.bounds


def test_a_status_and_a_month_read_far_less_than_a_scan_or_one_between(client: Any, orders: Any) -> None:
    declaration, items = orders
    query = SearchQuery(
        declaration,
        {
            "OrderDate": ("2025-03-01T00:00:00.000Z", "2025-03-31T23:59:59.999Z"),
            "Status": ("DELIVERED", "DELIVERED"),
        },
    )
    found, stats = search_all(searcher_on(client, declaration), query, 1000)
    assert {i["OrderId"] for i in found} == brute_force(query, items, key="OrderId")
    _, between = search_all(searcher_on(client, declaration), query, 1000, PATHS["z-between"])
    assert stats.items_read <= between.items_read and stats.items_read < len(items) / 5
