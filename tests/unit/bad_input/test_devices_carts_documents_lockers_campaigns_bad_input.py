"""Seed 004's routes refuse bad input with a 400 naming the field, before touching DynamoDB or S3.

The handlers run in-process (Powertools resolves a REST proxy event); no table exists, so a request
that got past validation would fail with something other than a 400.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest

from tatami_functions.campaigns.api import app as campaigns
from tatami_functions.campaigns.settings import CampaignsSettings
from tatami_functions.carts.api import app as carts
from tatami_functions.carts.settings import CartsSettings
from tatami_functions.common import tokens
from tatami_functions.common.paging import scope as page_scope
from tatami_functions.common.repository import forget_instances
from tatami_functions.common.tokens import encode_token
from tatami_functions.devices.api import app as devices
from tatami_functions.devices.settings import DeviceLogsSettings
from tatami_functions.documents.api import app as documents
from tatami_functions.documents.settings import DocumentsSettings
from tatami_functions.lockers.api import app as lockers
from tatami_functions.lockers.settings import LockersSettings
from tests.support.lambda_runtime import assert_400_naming, resolve

# Every model function's table (and the documents' bucket) names none that exists.
ENV = {
    **DeviceLogsSettings.environment(table="no-such-table"),
    **CartsSettings.environment(table="no-such-table"),
    **DocumentsSettings.environment(table="no-such-table", bucket="no-such-bucket"),
    **LockersSettings.environment(table="no-such-table"),
    **CampaignsSettings.environment(table="no-such-table"),
}
FORGED = "eyJwayI6Ik1BWCJ9.AAAA"
LOG = {"level": "INFO", "message": "m"}
ITEM = {"item_name": "靴下", "sku": "s", "quantity": 2, "price": 3300, "category": "c", "sub_category": "s"}
SHIP_TO = {
    "name": "n",
    "address": "a",
    "city": "千葉市",
    "state": "千葉県",
    "postal_code": "263-0023",
    "phone": "04-1",
}
DOC = {"status": "PENDING", "summary": "s", "document": "d"}
LOCKER = {"state": "東京都", "location": "千代田区#紀尾井町", "name": "n", "address": "a"}
LONG_ID = "x" * 129


@pytest.fixture(autouse=True)
def _environment(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name, value in ENV.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(tokens, "_secret", lambda: b"unit-test-key")
    # The tables and bucket built here name no real ones: drop them afterwards.
    forget_instances()
    yield
    forget_instances()


CASES = [
    # device logs
    (devices, "POST", "/devices/12345/logs", None, {"level": "LOUD", "message": "m"}, "level"),
    (devices, "POST", "/devices/12345/logs", None, {"level": "INFO"}, "message"),
    (devices, "POST", "/devices/12345/logs", None, {**LOG, "colour": "red"}, "colour"),
    (devices, "POST", "/devices/12345/logs", None, {**LOG, "retention_days": 0}, "retention_days"),
    (
        devices,
        "POST",
        "/devices/12345/logs",
        None,
        {**LOG, "created_at": "2999-01-01T00:00:00Z"},
        "created_at",
    ),
    (devices, "POST", "/devices/12345/logs", None, "{not json", "body"),
    (devices, "POST", f"/devices/{LONG_ID}/logs", None, LOG, "device_id"),
    (devices, "GET", "/devices/12345/logs", {"level": "LOUD"}, None, "level"),
    (devices, "GET", "/devices/12345/logs", {"from": "2020-02-02T00:00:00"}, None, "from"),
    (
        devices,
        "GET",
        "/devices/12345/logs",
        {"from": "2021-01-01T00:00:00Z", "to": "2020-01-01T00:00:00Z"},
        None,
        "from",
    ),
    (devices, "GET", "/devices/12345/logs", {"limit": "0"}, None, "limit"),
    (devices, "GET", "/devices/12345/logs", {"next": FORGED}, None, "next"),
    (
        devices,
        "PATCH",
        "/devices/12345/logs/LOUD/2020-02-02T00:00:00.000Z",
        None,
        {"operator": "MAX"},
        "level",
    ),
    (devices, "PATCH", "/devices/12345/logs/WARNING/yesterday", None, {"operator": "MAX"}, "created_at"),
    (devices, "PATCH", "/devices/12345/logs/WARNING/2020-02-02T00:00:00.000Z", None, {}, "body"),
    (
        devices,
        "PATCH",
        "/devices/12345/logs/WARNING/2020-02-02T00:00:00.000Z",
        None,
        {"operator": "a#b"},
        "operator",
    ),
    (devices, "GET", "/operators/MAX/logs", {"to": "soon"}, None, "to"),
    (devices, "GET", "/operators/MAX/logs", {"next": FORGED}, None, "next"),
    (devices, "GET", "/escalations", {"level": "ERROR"}, None, "level"),
    (devices, "GET", "/escalations", {"limit": "1001"}, None, "limit"),
    (devices, "GET", "/escalations", {"next": FORGED}, None, "next"),
    (devices, "GET", "/logs/recent", {"hours": "0"}, None, "hours"),
    (devices, "GET", "/logs/recent", {"hours": "169"}, None, "hours"),
    (devices, "GET", "/logs/recent", {"next": FORGED}, None, "next"),
    # carts
    (carts, "GET", f"/users/{LONG_ID}/cart", None, None, "user_id"),
    (carts, "GET", f"/users/{LONG_ID}/cart/items", None, None, "user_id"),
    (carts, "GET", "/users/MAX/cart/items/靴下ID/colour", None, None, "field"),
    (carts, "PUT", "/users/MAX/cart/items/靴下ID", None, {**ITEM, "quantity": 0}, "quantity"),
    (
        carts,
        "PUT",
        "/users/MAX/cart/items/靴下ID",
        None,
        {k: v for k, v in ITEM.items() if k != "price"},
        "price",
    ),
    (carts, "PUT", "/users/MAX/cart/items/靴下ID/quantity", None, {"value": 0}, "value"),
    (carts, "PUT", "/users/MAX/cart/items/靴下ID/added_at", None, {"value": "yesterday"}, "value"),
    (carts, "DELETE", f"/users/MAX/cart/items/{LONG_ID}", None, None, "item_id"),
    (carts, "PUT", "/users/MAX/cart/ship-to", None, {**SHIP_TO, "state": "千葉"}, "state"),
    (carts, "PUT", "/users/MAX/cart/ship-to", None, {**SHIP_TO, "postal_code": "2630023"}, "postal_code"),
    (carts, "GET", "/carts/by-item/靴下ID", {"limit": "0"}, None, "limit"),
    (carts, "GET", "/carts/by-item/靴下ID", {"limit": "1001"}, None, "limit"),
    (carts, "GET", "/carts/by-item/靴下ID", {"next": FORGED}, None, "next"),
    (carts, "GET", "/carts/by-prefecture/千葉", None, None, "state"),
    # documents
    (documents, "PUT", "/users/MAX/documents/r-1", None, {**DOC, "status": "DONE"}, "status"),
    (documents, "PUT", "/users/MAX/documents/r-1", None, {**DOC, "summary": ""}, "summary"),
    (documents, "PUT", "/users/MAX/documents/r-1", None, {**DOC, "created_on": "2021-13-01"}, "created_on"),
    (
        documents,
        "PUT",
        "/users/MAX/documents/r-1",
        None,
        {**DOC, "document": "a" * (1024 * 1024 + 1)},
        "document",
    ),
    (documents, "PUT", "/users/MAX/documents/r 1", None, DOC, "report_id"),
    (documents, "GET", "/users/MAX/documents", {"status": "DONE"}, None, "status"),
    (documents, "GET", "/users/MAX/documents", {"limit": "1001"}, None, "limit"),
    (documents, "GET", "/users/MAX/documents", {"next": FORGED}, None, "next"),
    (documents, "GET", "/users/MAX/documents/r 1", None, None, "report_id"),
    (documents, "PATCH", "/users/MAX/documents/r-1", None, {}, "body"),
    (documents, "PATCH", "/users/MAX/documents/r-1", None, {"status": "DONE"}, "status"),
    (documents, "DELETE", "/users/MAX/documents/r 1", None, None, "report_id"),
    # lockers
    (lockers, "GET", "/lockers", None, None, "state"),
    (lockers, "GET", "/lockers", {"state": "東京"}, None, "state"),
    (lockers, "GET", "/lockers", {"state": "東京都", "location": "千代田区##紀尾井町"}, None, "location"),
    (lockers, "GET", "/lockers", {"state": "東京都", "limit": "1001"}, None, "limit"),
    (lockers, "GET", "/lockers", {"state": "東京都", "next": FORGED}, None, "next"),
    (lockers, "GET", "/lockers/a b", None, None, "locker_id"),
    (lockers, "PUT", "/lockers/kioi-1", None, {**LOCKER, "state": "Tokyo"}, "state"),
    (lockers, "PUT", "/lockers/kioi-1", None, {k: v for k, v in LOCKER.items() if k != "address"}, "address"),
    (lockers, "DELETE", "/lockers/a b", None, None, "locker_id"),
    # campaigns
    (campaigns, "GET", "/campaigns/candidates", None, None, "prefecture"),
    (campaigns, "GET", "/campaigns/candidates", {"prefecture": "千葉"}, None, "prefecture"),
    (campaigns, "GET", "/campaigns/candidates", {"birth_month": "13"}, None, "birth_month"),
    (campaigns, "GET", "/campaigns/candidates", {"order_month": "0"}, None, "order_month"),
    (campaigns, "GET", "/campaigns/candidates", {"order_month": "12", "limit": "1001"}, None, "limit"),
    (campaigns, "GET", "/campaigns/candidates", {"order_month": "12", "next": FORGED}, None, "next"),
    (campaigns, "PUT", "/campaigns/users/MAX", None, {"birth_month": 13}, "birth_month"),
    (campaigns, "PUT", "/campaigns/users/MAX", None, {"shoe_size": 27}, "shoe_size"),
    (campaigns, "GET", f"/campaigns/users/{LONG_ID}", None, None, "user_id"),
]


@pytest.mark.parametrize(("app", "method", "path", "query", "body", "field"), CASES)
def test_bad_input_is_a_400_naming_the_field(
    app: Any, method: str, path: str, query: dict[str, str] | None, body: Any, field: str
) -> None:
    assert_400_naming(*resolve(app, method, path, query=query, body=body), field)


@pytest.mark.parametrize(
    ("app", "path", "query", "issued_for"),
    [
        (
            devices,
            "/devices/67890/logs",
            {},
            page_scope("devices.logs", device="12345", level=None, low="0000", high="9999"),
        ),
        (documents, "/users/SUE/documents", {}, page_scope("documents", user_id="MAX", status=None)),
        (carts, f"/carts/by-item/{quote('お茶碗ID')}", {}, page_scope("carts.by-item", item_id="靴下ID")),
        (lockers, "/lockers", {"state": "千葉県"}, page_scope("lockers", state="東京都", location=None)),
        (
            campaigns,
            "/campaigns/candidates",
            {"prefecture": "千葉県"},
            page_scope("campaigns.candidates", prefecture="東京都"),
        ),
    ],
)
def test_a_genuine_token_for_another_query_is_refused(
    app: Any, path: str, query: dict[str, str], issued_for: str
) -> None:
    token = encode_token({"user_id": {"S": "MAX"}}, issued_for)  # valid, signed, but for someone else
    status, body = resolve(app, "GET", path, query={**query, "next": token})
    assert status == 400
    assert body["message"].startswith("next:")
