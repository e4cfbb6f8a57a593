"""Known items for the four exported tables, written through each service's own code, and the
answers the named queries must give over them."""

from __future__ import annotations

import time
from decimal import Decimal
from pathlib import Path
from typing import Any

from tatami.ip_loader.load import LoadOptions, load, prepare
from tatami.ip_loader.store import RangesStore
from tatami_functions.counters.sharding import shard_key
from tatami_functions.devices.repository import DeviceLogsRepository
from tatami_functions.devices.schemas import DeviceLog, Level
from tatami_functions.orders.repository import OrdersRepository
from tatami_functions.orders.settings import OrdersTables

VOTES = [("votes-A", 0, 3), ("votes-A", 1, 2), ("votes-A", 2, 4), ("votes-A", 2, 1), ("votes-B", 0, 7)]
RANGES_CSV = """start,end,country,asn
1.0.0.0,1.0.0.255,AU,13335
1.0.4.0,1.0.7.255,AU,38803
8.8.8.0,8.8.8.255,US,15169
9.255.255.0,10.0.0.255,US,64512
133.11.0.0,133.11.255.255,JP,2907
2001:200::,2001:200:ffff:ffff:ffff:ffff:ffff:ffff,JP,2500
"""
LOGS = [
    ("d1", Level.INFO, "2024-05-01T01:00:00.000Z"),
    ("d1", Level.ERROR, "2024-05-01T02:00:00.000Z"),
    ("d2", Level.INFO, "2024-05-01T03:00:00.000Z"),
    ("d2", Level.INFO, "2024-05-02T00:00:01.000Z"),
    ("d1", Level.WARNING, "2024-05-02T10:00:00.000Z"),
]
ORDERS = [
    ("o1", "c1", "PENDING", "10.50", "2024-05-01T00:00:00.000Z"),
    ("o2", "c1", "PENDING", "4.50", "2024-05-03T00:00:00.000Z"),
    ("o3", "c2", "DELIVERED", "100.00", "2024-04-01T00:00:00.000Z"),
    ("o4", "c3", "ORDERED", "1.25", "2024-05-02T00:00:00.000Z"),
]

EXPECTED: dict[str, list[tuple[Any, ...]]] = {
    "votes_per_counter": [("votes-A", 10, 3), ("votes-B", 7, 1)],
    # 9.255.255.0-10.0.0.255 is cut into two pieces at the /8 boundary and still counts once (512).
    "ip_ranges_per_country": [("JP", 2, 1, 65536), ("AU", 2, 2, 1280), ("US", 2, 2, 768)],
    "device_log_levels_per_day": [
        ("2024-05-01", "ERROR", 1, 1),
        ("2024-05-01", "INFO", 2, 2),
        ("2024-05-02", "INFO", 1, 1),
        ("2024-05-02", "WARNING", 1, 1),
    ],
    "orders_per_status": [
        ("DELIVERED", 1, Decimal("100.00"), "2024-04-01T00:00:00.000Z"),
        ("ORDERED", 1, Decimal("1.25"), "2024-05-02T00:00:00.000Z"),
        ("PENDING", 2, Decimal("15.00"), "2024-05-03T00:00:00.000Z"),
    ],
}


def write_votes(client: Any, table: str) -> None:
    """Shard writes as the counters service makes them (`ADD count :by, v :one`)."""
    for name, shard, by in VOTES:
        client.update_item(
            TableName=table,
            Key={"pk": {"S": shard_key(name, shard)}},
            UpdateExpression="ADD #c :by, #v :one",
            ExpressionAttributeNames={"#c": "count", "#v": "v"},
            ExpressionAttributeValues={":by": {"N": str(by)}, ":one": {"N": "1"}},
        )


def write_ranges(client: Any, table: str, folder: Path) -> None:
    """Load the CSV with the IP loader, plus a piece of a version that is not live (the view skips it)."""
    path = folder / "ranges.csv"
    path.write_text(RANGES_CSV)
    load(prepare([path]), RangesStore(client, table), LoadOptions(grace=0))
    client.put_item(
        TableName=table,
        Item={
            "pk": {"S": "v99#4#1.0.0.0/8"},
            "sk": {"B": bytes([1, 0, 0, 0])},
            "last": {"B": bytes([1, 255, 255, 255])},
            "start": {"S": "1.0.0.0"},
            "end": {"S": "1.255.255.255"},
            "data": {"M": {"country": {"S": "XX"}}},
        },
    )


def write_logs(client: Any, table: str) -> None:
    logs = DeviceLogsRepository(table, client=client)
    expires = int(time.time()) + 365 * 86400
    for number, (device, level, created_at) in enumerate(LOGS):
        logs.put_log(DeviceLog(device, level, created_at, f"log {number}", expires, shard_id=number % 10))


def write_orders(client: Any, orders: str, customers: str) -> None:
    repository = OrdersRepository(OrdersTables(orders, customers), client)
    for number, (order_id, customer, status, total, date) in enumerate(ORDERS):
        order = {"OrderId": order_id, "CustomerId": customer, "OrderDate": date, "Status": status}
        repository.place({**order, "Total": Decimal(total)}, shard=number % 10 + 1)
