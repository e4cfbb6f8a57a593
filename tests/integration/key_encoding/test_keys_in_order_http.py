"""Sort keys that sort as they read, over real HTTP on the app's local cloud: device logs from the
year 0001 to 2025 list in time order (the table's key and the operator index's), what the API
returns is sent back as a path parameter, and instants outside years 0001-9999 are 400s naming
their field."""

from __future__ import annotations

import uuid
from typing import Any
from urllib.parse import quote

import requests

from tatami.local.cloud import LocalCloud

CREATED = ["0001-01-01T00:00:00Z", "0999-06-01T12:00:00+09:00", "1000-01-01T00:00:00Z"]
CREATED += ["1969-12-31T23:59:59.999Z"]
EVERY_YEAR = {"from": "0001-01-01T00:00:00Z", "to": "9999-12-31T23:59:59.999Z"}


def _send(cloud: LocalCloud, method: str, path: str, body: Any = None, **query: str) -> requests.Response:
    return requests.request(method, cloud.api_url + quote(path), json=body, params=query, timeout=30)


def test_device_logs_of_every_year_list_in_order_and_round_trip(app_cloud: LocalCloud) -> None:
    device, operator = f"years-{uuid.uuid4().hex[:6]}", f"op-{uuid.uuid4().hex[:6]}"
    latest = "2025-06-01T00:00:00.000Z"  # not `now`: the sample's tests list the last hours of logs
    for created_at in [*CREATED, latest]:
        body = {"level": "WARNING", "message": f"at {created_at}", "created_at": created_at}
        assert _send(app_cloud, "POST", f"/devices/{device}/logs", body).status_code == 201
    listed = _send(app_cloud, "GET", f"/devices/{device}/logs", **EVERY_YEAR).json()["items"]
    expected = ["0001-01-01T00:00:00.000Z", "0999-06-01T03:00:00.000Z", "1000-01-01T00:00:00.000Z"]
    expected += ["1969-12-31T23:59:59.999Z", latest]
    assert [log["created_at"] for log in listed] == expected[::-1]  # newest first, 0999 last but one
    for log in listed:  # what the API answered goes back as a path parameter
        path = f"/devices/{device}/logs/WARNING/{log['created_at']}"
        patched = _send(app_cloud, "PATCH", path, {"operator": operator})
        assert (patched.status_code, patched.json()["created_at"]) == (200, log["created_at"]), patched.text
    handled = _send(app_cloud, "GET", f"/operators/{operator}/logs", **EVERY_YEAR).json()["items"]
    assert [log["created_at"] for log in handled] == expected[::-1]  # the index's sort key too


def test_instants_outside_years_0001_to_9999_are_400s_naming_the_field(app_cloud: LocalCloud) -> None:
    logs = f"/devices/years-{uuid.uuid4().hex[:6]}/logs"
    year_zero_path = f"{logs}/INFO/0001-01-01T08:00:00+09:00"
    year_zero = {"level": "INFO", "message": "m", "created_at": "0001-01-01T00:00:00+09:00"}
    cases = [
        (_send(app_cloud, "POST", logs, year_zero), "created_at"),
        (_send(app_cloud, "GET", logs, to="9999-12-31T23:00:00-05:00"), "to"),
        (_send(app_cloud, "PATCH", year_zero_path, {"operator": "x"}), "created_at"),
        (_send(app_cloud, "GET", "/customers/c-1/orders", before="9999-12-31T23:59:59.9999"), "before"),
        (_send(app_cloud, "GET", "/forums/DynamoDB/threads/t/replies", **{"from": "0000-12-31"}), "from"),
    ]
    for response, field in cases:
        assert response.status_code == 400, response.text
        assert response.json()["message"].startswith(f"{field}:"), response.text
    # Nothing is before year 1: an empty answer (or the unknown customer's 404), never a crash.
    earliest = _send(app_cloud, "GET", "/customers/c-1/orders", before="0001-01-01T00:00:00Z")
    assert earliest.status_code in (200, 404) and earliest.json().get("items", []) == [], earliest.text
