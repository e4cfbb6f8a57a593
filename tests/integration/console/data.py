"""What the console's browser tests look at, put through the API as a user would: places around the
world, a few orders, and one poison record in the replicator's failure queue."""

from __future__ import annotations

import contextlib
import json
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import requests

from tatami.local.cloud import LocalCloud
from tatami.local.functions.pool import FunctionPool
from tatami_functions import stack_outputs
from tests.support.service_tables import largest_item
from tests.support.waiting import eventually

# (name, latitude, longitude, population, country): a spread the map shows and a box can cut
CITIES = [
    ("Tokyo", 35.6895, 139.69171, 8336599, "JP"),
    ("Yokohama", 35.44778, 139.6425, 3574443, "JP"),
    ("Osaka", 34.69374, 135.50218, 2592413, "JP"),
    ("Nagoya", 35.18147, 136.90641, 2191279, "JP"),
    ("Sapporo", 43.06417, 141.34694, 1883027, "JP"),
    ("Fukuoka", 33.6, 130.41667, 1392289, "JP"),
    ("Kobe", 34.6913, 135.183, 1528478, "JP"),
    ("Kyoto", 35.02107, 135.75385, 1459640, "JP"),
    ("Sendai", 38.26667, 140.86667, 1063103, "JP"),
    ("Seoul", 37.566, 126.9784, 10349312, "KR"),
    ("Busan", 35.10168, 129.03004, 3678555, "KR"),
    ("Shanghai", 31.22222, 121.45806, 22315474, "CN"),
    ("Beijing", 39.9075, 116.39723, 11716620, "CN"),
    ("Manila", 14.6042, 120.9822, 1600000, "PH"),
    ("Sydney", -33.86785, 151.20732, 4627345, "AU"),
    ("Auckland", -36.84853, 174.76349, 417910, "NZ"),
    ("Suva", -18.14161, 178.44149, 77366, "FJ"),
    ("Delhi", 28.65195, 77.23149, 10927986, "IN"),
    ("Moscow", 55.75222, 37.61556, 10381222, "RU"),
    ("Paris", 48.85341, 2.3488, 2138551, "FR"),
    ("London", 51.50853, -0.12574, 7556900, "GB"),
    ("Madrid", 40.4165, -3.70256, 3255944, "ES"),
    ("Lagos", 6.45407, 3.39467, 9000000, "NG"),
    ("Cairo", 30.06263, 31.24967, 7734614, "EG"),
    ("Nairobi", -1.28333, 36.81667, 2750547, "KE"),
    ("Cape Town", -33.92584, 18.42322, 3433441, "ZA"),
    ("New York", 40.71427, -74.00597, 8175133, "US"),
    ("Chicago", 41.85003, -87.65005, 2720546, "US"),
    ("Los Angeles", 34.05223, -118.24368, 3971883, "US"),
    ("Mexico City", 19.42847, -99.12766, 12294193, "MX"),
    ("Bogota", 4.60971, -74.08175, 7674366, "CO"),
    ("Lima", -12.04318, -77.02824, 7737002, "PE"),
    ("Sao Paulo", -23.5475, -46.63611, 10021295, "BR"),
    ("Buenos Aires", -34.61315, -58.37723, 13076300, "AR"),
    ("Reykjavik", 64.13548, -21.89541, 118918, "IS"),
    ("Anchorage", 61.21806, -149.90028, 291826, "US"),
]
ORDER_TOTALS = [12.5, 48.0, 75.25, 99.99, 120.0, 150.5, 210.0, 260.75, 310.0, 399.0, 420.5, 480.0]


WARMED = (
    "PlacesApi",
    "PlacesZIndexMaintainer",
    "OrdersModelFunction",
    "OrdersModelZIndexMaintainer",
    "ReplicationLab",
)


def warm(cloud: LocalCloud) -> None:
    """Start the functions the views' data goes through at once, side by side, rather than one cold
    start after another as the data arrives (each imports its handler for seconds on a busy machine)."""
    pools = [pool for logical_id, pool in cloud.pools.items() if logical_id.startswith(WARMED)]

    def start(pool: FunctionPool) -> None:
        # Too slow to start on a loaded machine: its first real call starts one again.
        with contextlib.suppress(TimeoutError, RuntimeError):
            pool.warm()

    with ThreadPoolExecutor(len(pools)) as starting:
        list(starting.map(start, pools))


def place_key(name: str) -> str:
    return f"console-{name.lower().replace(' ', '-')}"


def put_places(cloud: LocalCloud) -> None:
    """Every city through `PUT /places/{id}`; the stream maintainer indexes them (waited for)."""

    def put(city: tuple[str, float, float, int, str]) -> None:
        name, latitude, longitude, population, country = city
        place = {"name": name, "latitude": latitude, "longitude": longitude, "population": population}
        response = requests.put(
            f"{cloud.api_url}/places/{place_key(name)}", json={**place, "country": country}, timeout=30
        )
        assert response.status_code == 200, response.text

    for city in CITIES:  # one after another: one warm execution environment, not four cold ones
        put(city)
    table = cloud.outputs[stack_outputs.OUTPUT_PLACES_TABLE]
    assert eventually(lambda: indexed(cloud, table, "places-z", "console-") >= len(CITIES), timeout=60)


def post_orders(cloud: LocalCloud) -> None:
    """A few orders through `POST /orders` (one transaction each), indexed by the orders' maintainer."""
    customer = f"console-{uuid.uuid4().hex[:6]}"

    def post(total: float) -> None:
        order = {"CustomerId": customer, "Total": total}
        response = requests.post(f"{cloud.api_url}/orders", json=order, timeout=30)
        assert response.status_code in (200, 201), response.text

    for total in ORDER_TOTALS:
        post(total)
    table = cloud.outputs[stack_outputs.OUTPUT_ORDERS_TABLE]
    assert eventually(lambda: indexed(cloud, table, "orders-z", customer) >= len(ORDER_TOTALS), timeout=60)


def park_a_poison_record(cloud: LocalCloud) -> str:
    """A logfile item of DynamoDB's largest size: its replica copy cannot fit, so the replicator parks
    the record in its failure queue with its key and the reason. The key, once it is parked (the item
    itself is deleted then)."""
    key = f"request#console-poison-{uuid.uuid4().hex[:6]}"
    client, source = cloud.client("dynamodb"), cloud.outputs[stack_outputs.OUTPUT_LOGFILE_TABLE]
    largest_item(client, source, key)
    sqs, url = cloud.client("sqs"), cloud.outputs[stack_outputs.OUTPUT_REPLICATION_FAILURES]

    def parked() -> bool:
        answer = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, VisibilityTimeout=0)
        return any(key in message["Body"] for message in answer.get("Messages", []))

    assert eventually(parked, timeout=60)
    # The message stays parked; the item goes, so the source and its replica can agree again (the
    # replication test compares them whole on this same cloud).
    client.delete_item(TableName=source, Key={"PK": {"S": key}})
    return key


def indexed(cloud: LocalCloud, table: str, index: str, marker: str) -> int:
    """How many entries of a Z index hold `marker` (read straight from the GSI: no function invoked)."""
    pages = cloud.client("dynamodb").get_paginator("scan").paginate(TableName=table, IndexName=index)
    return sum(marker in str(item) for page in pages for item in page["Items"])


def search_all(api: str, path: str, query: dict[str, Any]) -> list[dict[str, Any]]:
    """Every item of a search, page after page through its `next` token."""
    items: list[dict[str, Any]] = []
    params = {**query, "limit": 1000}
    for _ in range(100):
        body = requests.get(f"{api}{path}", params=params, timeout=30).json()
        items += body["items"]
        if not body["next"]:
            return items
        params["next"] = body["next"]
    raise AssertionError(f"{path} did not end: {json.dumps(query)}")
