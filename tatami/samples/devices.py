"""Seed 004's sample data (device logs, carts, documents, lockers, campaigns), written through the API.

The requests are the ones a client makes (POST logs, PUT cart items, documents, lockers, profiles),
so `make run` exercises the normal path, and the integration tests load the same data into their
own local cloud and check every route's answer against the seed. The data is in
data/models_workshop.json; the seed's cart JSON is kept verbatim ("3,300" becomes 3300 yen here).
"""

from __future__ import annotations

import base64
import json
import random
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

if TYPE_CHECKING:
    from tatami.local.cloud import LocalCloud

NAME = "models (seed 004)"
DATA = Path(__file__).resolve().parent / "data" / "models_workshop.json"
Request = tuple[str, str, dict[str, Any]]  # method, path (unquoted), JSON body


def sample_data() -> dict[str, Any]:
    return dict(json.loads(DATA.read_text(encoding="utf-8")))


def requests_for(data: dict[str, Any], now: datetime) -> list[Request]:
    """Every write the sample makes, in order (recent logs are dated relative to `now`).

    >>> [r[:2] for r in requests_for(sample_data(), datetime(2021, 8, 1, tzinfo=UTC))][:1]
    [('POST', '/devices/12345/logs')]
    """
    return [
        *_device_logs(data, now),
        *_carts(data["carts"]),
        *_documents(data["documents"]),
        *(("PUT", f"/lockers/{x.pop('locker_id')}", x) for x in _copies(data["lockers"])),
        *(("PUT", f"/campaigns/users/{x.pop('user_id')}", x) for x in _copies(data["campaign_users"])),
    ]


def _copies(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [dict(item) for item in items]


def _device_logs(data: dict[str, Any], now: datetime) -> Iterator[Request]:
    for log in _copies(data["device_logs"]):
        yield "POST", f"/devices/{log.pop('device_id')}/logs", log
    for log in _copies(data["recent_logs"]["logs"]):
        created = now - timedelta(minutes=log.pop("minutes_ago"))
        yield "POST", f"/devices/{log.pop('device_id')}/logs", {**log, "created_at": created.isoformat()}


def _carts(carts: dict[str, Any]) -> Iterator[Request]:
    for user_id, cart in carts.items():
        for item in _copies(cart["cart_items"]):
            item_id = item.pop("item_id")
            item |= {"quantity": int(item["quantity"]), "price": int(item["price"].replace(",", ""))}
            yield "PUT", f"/users/{user_id}/cart/items/{item_id}", item
        yield "PUT", f"/users/{user_id}/cart/ship-to", cart["ship_to"]


def _documents(documents: dict[str, Any]) -> Iterator[Request]:
    for user_id, reports in documents.items():
        if user_id.startswith("_"):  # a comment in the data file
            continue
        for report in _copies(reports):
            if "body_kb" in report:  # incompressible, so it is stored in S3 as the seed's large items
                raw = random.Random(report["report_id"]).randbytes(report.pop("body_kb") * 768)
                report["document"] = base64.b64encode(raw).decode()
            yield "PUT", f"/users/{user_id}/documents/{report.pop('report_id')}", report


def send(api_url: str, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    """One JSON request to the API; (status, decoded body or None)."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(
        api_url + quote(path, safe="/?=&%"),
        data=data,
        method=method,
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            raw = response.read()
            return response.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as exc:
        raw = exc.read()
        return exc.code, json.loads(raw) if raw else None


def load_into(api_url: str, progress: Callable[[int, int], None] = lambda done, total: None) -> str:
    """Write the sample through the API at `api_url`; a one-line summary."""
    requests = requests_for(sample_data(), datetime.now(UTC))
    for done, (method, path, body) in enumerate(requests, start=1):
        status, answer = send(api_url, method, path, body)
        if status >= 400:
            raise RuntimeError(f"{method} {path} -> {status}: {answer}")
        progress(done, len(requests))
    return f"{len(requests)} writes: device logs, 3 carts, 4 documents, 6 lockers, 6 campaign profiles"


def load(cloud: LocalCloud, progress: Callable[[int, int], None]) -> str:
    return load_into(cloud.api_url, progress)


EXAMPLES = tuple(
    quote(path, safe="/?=&")
    for path in (
        "/devices/12345/logs?level=WARNING",
        "/operators/MAX/logs?from=2020-02-02T00:00:00.000Z&to=2020-02-02T00:00:10.000Z",
        "/escalations",
        "/logs/recent?hours=4",
        "/users/MAX/cart",
        "/carts/by-item/靴下ID",
        "/users/MAX/documents?status=COMPLETED",
        "/lockers?state=東京都&location=千代田区#紀尾井町",
        "/campaigns/candidates?prefecture=千葉県&birth_month=12&order_month=12",
    )
)
