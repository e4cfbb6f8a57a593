"""What a web page could send to the app's local cloud changes nothing (issue 36): a request under a
foreign Host (DNS rebinding), a cross-site form or no-cors POST (with the Origin and Sec-Fetch-Site
a browser adds), and a form body sent without them (a form is never read as JSON). The counter and
the customer's orders stay as they were; the same writes as JSON from a non-browser client work."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
import requests

from tatami.local.cloud import LocalCloud

EVIL = "https://evil.example"
FORM = "application/x-www-form-urlencoded"


def _send(cloud: LocalCloud, method: str, path: str, body: str, **headers: str) -> requests.Response:
    return requests.request(method, f"{cloud.api_url}{path}", data=body.encode(), headers=headers, timeout=60)


def _value(cloud: LocalCloud, name: str) -> Any:
    return requests.get(f"{cloud.api_url}/counters/{name}", timeout=60).json()["value"]


@pytest.fixture(scope="module")
def counter(app_cloud: LocalCloud) -> str:
    name = f"foreign-{uuid.uuid4().hex[:8]}"
    created = requests.put(f"{app_cloud.api_url}/counters/{name}", json={"target_wcu": 100}, timeout=60)
    assert created.status_code in (200, 201), created.text
    return name


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"Origin": EVIL, "Content-Type": FORM}, 403),  # a cross-site form
        ({"Origin": EVIL, "Content-Type": "text/plain"}, 403),  # a text/plain form, a no-cors fetch
        ({"Sec-Fetch-Site": "cross-site", "Content-Type": "application/json"}, 403),
        ({"Origin": "null", "Content-Type": "application/json"}, 403),  # a sandboxed frame
        ({"Host": "evil.example", "Content-Type": "application/json"}, 403),  # rebinding
        ({"Content-Type": FORM}, 415),  # a form with no Origin: still never read as JSON
        ({"Content-Type": "text/plain"}, 415),
    ],
    ids=["form", "text form", "cross-site", "null origin", "foreign host", "bare form", "bare text"],
)
def test_a_write_a_web_page_could_send_changes_no_counter(
    app_cloud: LocalCloud, counter: str, headers: dict[str, str], status: int
) -> None:
    before = _value(app_cloud, counter)
    answer = _send(app_cloud, "POST", f"/counters/{counter}/increments", '{"by": 5}', **headers)
    assert answer.status_code == status, answer.text
    field = answer.json()["errors"][0]["field"]
    assert field in ("Host", "Origin", "Sec-Fetch-Site", "Content-Type")
    assert _value(app_cloud, counter) == before


def test_a_foreign_host_reads_nothing_and_own_names_do(app_cloud: LocalCloud, counter: str) -> None:
    port = app_cloud.api.port if app_cloud.api else 0
    rebound = requests.get(
        f"{app_cloud.api_url}/counters/{counter}", headers={"Host": f"evil.example:{port}"}, timeout=60
    )
    assert rebound.status_code == 403 and counter not in rebound.text
    by_name = requests.get(f"http://localhost:{port}/counters/{counter}", timeout=60)
    assert by_name.status_code == 200 and by_name.json()["name"] == counter


def test_a_cross_site_order_is_never_placed(app_cloud: LocalCloud) -> None:
    customer = f"foreign-{uuid.uuid4().hex[:8]}"
    order = f'{{"CustomerId": "{customer}", "Total": 12.5}}'
    forged = _send(app_cloud, "POST", "/orders", order, Origin=EVIL, **{"Content-Type": FORM})
    bare = _send(app_cloud, "POST", "/orders", order, **{"Content-Type": FORM})
    assert (forged.status_code, bare.status_code) == (403, 415)
    placed = requests.get(f"{app_cloud.api_url}/customers/{customer}/orders", timeout=60)
    assert placed.status_code == 404, placed.text  # a customer who never ordered


def test_the_same_writes_from_its_own_page_and_from_clients_work(app_cloud: LocalCloud, counter: str) -> None:
    before = _value(app_cloud, counter)
    own_page = {
        "Origin": app_cloud.api_url,
        "Sec-Fetch-Site": "same-origin",
        "Content-Type": "APPLICATION/JSON",
    }
    assert _send(app_cloud, "POST", f"/counters/{counter}/increments", '{"by": 2}', **own_page).ok
    assert requests.post(f"{app_cloud.api_url}/counters/{counter}/increments", json={"by": 3}, timeout=60).ok
    assert _value(app_cloud, counter) == before + 5
