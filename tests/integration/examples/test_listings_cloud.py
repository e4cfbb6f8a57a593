"""examples/listings on the local cloud: searched exactly (against brute force over what was loaded) and
its view counter exact under concurrent increments."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from functools import partial
from typing import Any

import pytest
import requests

from tatami.local.cloud import LocalCloud
from tests.integration.conftest import start_cloud
from tests.support.examples import LISTINGS, synthesize_example
from tests.support.waiting import eventually

DAY_MS = 86_400_000
START = 1_767_225_600_000  # 2026-01-01 in epoch ms
BOXES = [
    {"price_min": "20000000", "price_max": "60000000", "area_min": "40", "area_max": "90"},
    {"area_min": "100", "listed_min": str(START + 30 * DAY_MS), "listed_max": str(START + 90 * DAY_MS)},
    {"price_max": "15000000"},
    {"price_min": "1", "price_max": "99999999", "area_min": "0", "area_max": "4095"},  # the whole range
    {"price_min": "70000000", "price_max": "70000001"},  # most likely empty
]


@pytest.fixture(scope="module")
def listings_cloud(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCloud]:
    root = tmp_path_factory.mktemp("listings")
    cloud = start_cloud(synthesize_example(LISTINGS, root / "cdk.out"), root / "work")
    yield cloud
    cloud.stop()


@pytest.fixture(scope="module")
def loaded(listings_cloud: LocalCloud) -> list[dict[str, Any]]:
    """300 listings written straight to the table; the maintainer indexes them from the stream."""
    rng = random.Random(41)
    items = [
        {
            "id": f"listing-{n}",
            "price": rng.randrange(5_000_000, 80_000_000),
            "area": rng.randrange(15, 250),
            "listed": START + rng.randrange(0, 180) * DAY_MS,
            "title": f"listing {n}",
        }
        for n in range(300)
    ]
    client, table = listings_cloud.client("dynamodb"), listings_cloud.outputs["ListingsTable"]
    for start in range(0, len(items), 25):
        writes = [{"PutRequest": {"Item": _stored(item)}} for item in items[start : start + 25]]
        assert client.batch_write_item(RequestItems={table: writes})["UnprocessedItems"] == {}
    assert eventually(lambda: len(_search(listings_cloud, BOXES[3])) == len(items), timeout=60), "indexed"
    return items


def test_every_box_finds_exactly_what_brute_force_finds(
    listings_cloud: LocalCloud, loaded: list[dict[str, Any]]
) -> None:
    for box in BOXES:
        found = sorted(item["id"] for item in _search(listings_cloud, box))
        assert found == sorted(item["id"] for item in loaded if _inside(item, box)), box


def test_a_bad_bound_is_a_400_naming_it(listings_cloud: LocalCloud) -> None:
    response = requests.get(
        f"{listings_cloud.api_url}/listings/search", params={"area_min": "big"}, timeout=30
    )
    assert response.status_code == 400
    assert "area_min" in response.json()["message"]


def test_concurrent_views_count_exactly(listings_cloud: LocalCloud) -> None:
    """Eight threads of 25 keyed increments. An answer that does not say whether it applied (a 502 or
    504 from the gateway, a 503) or a 409 (the same key committing) is retried with the same key, as
    the API asks: it counts once, so the total is exact."""
    url = f"{listings_cloud.api_url}/counters/listing-7-views"
    created = _retried(lambda: requests.put(url, json={"target_wcu": 2000}, timeout=30))
    assert created.status_code in (200, 201), created.text  # 200: a retry found it made

    def view(thread: int) -> list[int]:
        with requests.Session() as session:

            def once(key: str) -> requests.Response:
                headers = {"Idempotency-Key": key}
                return session.post(f"{url}/increments", json={"by": 1}, headers=headers, timeout=30)

            return [_retried(partial(once, f"view-{thread}-{n}")).status_code for n in range(25)]

    with ThreadPoolExecutor(8) as pool:
        statuses = [status for batch in pool.map(view, range(8)) for status in batch]
    assert statuses == [200] * 200
    reply = _retried(lambda: requests.get(url, params={"consistent": "true"}, timeout=30))
    assert reply.status_code == 200 and reply.json()["value"] == 200, reply.text


RETRIED = (409, 502, 503, 504)


def _retried(send: Callable[[], requests.Response], retries: int = 6) -> requests.Response:
    """`send()` again while its answer is one to retry (Retry-After, at most 2 s, between tries)."""
    reply = send()
    for _ in range(retries):
        if reply.status_code not in RETRIED:
            break
        time.sleep(min(2.0, float(reply.headers.get("Retry-After", "1"))))
        reply = send()
    return reply


def _search(cloud: LocalCloud, box: dict[str, str]) -> list[dict[str, Any]]:
    response = requests.get(f"{cloud.api_url}/listings/search", params=box, timeout=60)
    assert response.status_code == 200, response.text
    return list(response.json()["items"])


def _inside(item: dict[str, Any], box: dict[str, str]) -> bool:
    for name in ("price", "area", "listed"):
        low, high = box.get(f"{name}_min"), box.get(f"{name}_max")
        if (low is not None and item[name] < Decimal(low)) or (
            high is not None and item[name] > Decimal(high)
        ):
            return False
    return True


def _stored(item: dict[str, Any]) -> dict[str, Any]:
    return {k: {"N": str(v)} if isinstance(v, int) else {"S": v} for k, v in item.items()}
