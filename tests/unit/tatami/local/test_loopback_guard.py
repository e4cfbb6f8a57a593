"""tatami/local/loopback.py, and the servers that apply it (the API gateway, with what it mounts,
and the control port): only their own loopback Host names, and no write from another web origin
(DNS rebinding and cross-site request forgery), while curl, the SDKs and the page's own scripts pass."""

from __future__ import annotations

import json
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
import requests

from tatami.local.control import ControlServer
from tatami.local.functions.pool import Invocation
from tatami.local.gateway.proxy import Reply
from tatami.local.gateway.routes import Route, RouteTable
from tatami.local.gateway.server import ApiGateway
from tatami.local.loopback import refusal

PORT = 3000
INVOKED: list[str] = []


@pytest.mark.parametrize(
    "headers",
    [
        {"host": "127.0.0.1:3000"},
        {"host": "LOCALHOST:3000"},
        {"host": "[::1]:3000"},
        {"host": "127.0.0.1:3000", "origin": "http://127.0.0.1:3000", "sec-fetch-site": "same-origin"},
        {"host": "localhost:3000", "origin": "http://localhost:3000"},
        {"host": "127.0.0.1:3000", "sec-fetch-site": "none"},  # typed into the address bar
    ],
    ids=["ip", "name in capitals", "ipv6", "own page", "own page by name", "the user"],
)
def test_its_own_names_and_its_own_pages_may_write(headers: dict[str, str]) -> None:
    assert refusal("POST", headers.get, PORT) is None


@pytest.mark.parametrize(
    ("method", "headers", "refused"),
    [
        ("GET", {"host": "evil.example:3000"}, "Host"),  # DNS rebinding: the attacker's name, our address
        ("GET", {"host": "127.0.0.1:3001"}, "Host"),
        ("GET", {}, "Host"),
        ("POST", {"host": "127.0.0.1:3000", "origin": "https://evil.example"}, "Origin"),
        ("PUT", {"host": "127.0.0.1:3000", "origin": "null"}, "Origin"),  # a sandboxed frame, a file
        ("POST", {"host": "127.0.0.1:3000", "origin": "http://localhost:3000"}, "Origin"),  # not this name
        ("DELETE", {"host": "127.0.0.1:3000", "sec-fetch-site": "cross-site"}, "Sec-Fetch-Site"),
        ("POST", {"host": "127.0.0.1:3000", "sec-fetch-site": "same-site"}, "Sec-Fetch-Site"),  # :8080
    ],
)
def test_a_foreign_host_or_a_write_from_another_origin_is_refused(
    method: str, headers: dict[str, str], refused: str
) -> None:
    found = refusal(method, headers.get, PORT)
    assert found is not None and found[0] == refused


def test_reads_from_other_pages_are_left_to_the_browser_which_hides_their_answers() -> None:
    headers = {"host": "127.0.0.1:3000", "origin": "https://evil.example", "sec-fetch-site": "cross-site"}
    assert refusal("GET", headers.get, PORT) is None  # a link to the console from another site works


def _function(_function: str, event: dict[str, Any], _timeout: float | None) -> Invocation:
    INVOKED.append(event["httpMethod"])
    return Invocation("rid", True, result={"statusCode": 200, "body": "{}"})


@pytest.fixture(scope="module")
def gateway() -> Iterator[ApiGateway]:
    api = ApiGateway(RouteTable([Route("ANY", "/orders", "Fn")]), _function, lambda _line: None, 0, "v1")
    api.mount("/console", lambda _request: Reply(200, b'{"tables": ["secret"]}'))
    api.start()
    yield api
    api.stop()


@pytest.mark.parametrize("path", ["/orders", "/console/api/tables"])
def test_the_gateway_answers_a_foreign_host_403_before_any_route_or_mount(
    gateway: ApiGateway, path: str
) -> None:
    INVOKED.clear()
    response = requests.get(
        f"{gateway.url}{path}", headers={"Host": f"evil.example:{gateway.port}"}, timeout=5
    )
    assert response.status_code == 403 and "secret" not in response.text and INVOKED == []
    assert response.json()["errors"][0]["field"] == "Host"
    assert requests.get(f"http://localhost:{gateway.port}{path}", timeout=5).status_code == 200


def test_a_cross_site_form_post_never_reaches_the_function(gateway: ApiGateway) -> None:
    INVOKED.clear()
    form = {"Origin": "https://evil.example", "Content-Type": "application/x-www-form-urlencoded"}
    response = requests.post(f"{gateway.url}/orders", data='{"Total": 1}', headers=form, timeout=5)
    assert response.status_code == 403 and INVOKED == []
    own = {"Origin": gateway.url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json"}
    assert requests.post(f"{gateway.url}/orders", data="{}", headers=own, timeout=5).status_code == 200
    assert INVOKED == ["POST"]


@pytest.fixture
def control() -> Iterator[tuple[ControlServer, list[str]]]:
    fired: list[str] = []
    cloud = SimpleNamespace(
        fire_rule=lambda name: fired.append(name) or [], stream_status=lambda: {"streams": "backlogs"}
    )
    server = ControlServer(cloud)  # type: ignore[arg-type]  # what the two routes below use of a cloud
    yield server, fired
    server.stop()


def test_the_control_port_refuses_a_foreign_host_and_a_web_pages_write(
    control: tuple[ControlServer, list[str]],
) -> None:
    server, fired = control
    port = server.url.rsplit(":", 1)[1]
    rebound = requests.get(f"{server.url}/streams", headers={"Host": f"evil.example:{port}"}, timeout=5)
    forged = requests.post(
        f"{server.url}/rules/Export/fire", headers={"Origin": "https://evil.example"}, timeout=5
    )
    any_method = requests.put(f"{server.url}/faults", headers={"Origin": "https://evil.example"}, timeout=5)
    assert (rebound.status_code, forged.status_code, any_method.status_code, fired) == (403, 403, 403, [])
    assert "backlogs" not in rebound.text and json.loads(forged.text)["errors"][0]["field"] == "Origin"
    assert (
        requests.post(f"{server.url}/rules/Export/fire", timeout=5).status_code == 200
    )  # `tatami local fire`
    assert fired == ["Export"]
