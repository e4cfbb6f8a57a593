"""tatami/local/gateway/server.py over real HTTP (a stub function): API Gateway's own answers are JSON in
the error shape, whatever the method, the size of the request or its headers (found by fuzzing: 501
HTML pages for methods like TRACE); AWS's statuses for what API Gateway and Lambda refuse; and a
server that answers hostile clients within its read timeout and keeps serving."""

from __future__ import annotations

import http.client
import json
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tatami.local.functions.pool import Invocation
from tatami.local.gateway.integration import LAMBDA_PAYLOAD_BYTES
from tatami.local.gateway.proxy import Reply
from tatami.local.gateway.routes import GatewayResponse, Route, RouteTable
from tatami.local.gateway.server import MAX_PAYLOAD_BYTES, ApiGateway, GatewayLimits

ROUTES = RouteTable(
    [
        Route("GET", "/items/{id}", "Fn"),
        Route("GET", "/items", "Fn", required_query=("kind",)),
        Route("POST", "/items", "Fn"),
        Route("GET", "/slow", "Fn"),
    ]
)
TEMPLATE = '{"message": $context.error.messageString, "errors": [{"field": "parameters", "in": "request", "message": $context.error.messageString}]}'  # noqa: E501 - as the template has it
LIMITS = GatewayLimits(read_timeout=1.0, idle_timeout=2.0, integration_timeout=1.0)
INVOKED: list[str] = []


def _echo(_function: str, event: dict[str, Any], _timeout: float | None) -> Invocation:
    INVOKED.append(event["path"])
    if event["path"] == "/slow":
        time.sleep(3)
    body = {"path": event["path"], "bytes": len(event["body"] or "")}
    return Invocation("rid", True, result={"statusCode": 200, "body": json.dumps(body)})


@pytest.fixture(scope="module")
def gateway() -> Iterator[ApiGateway]:
    responses = {"BAD_REQUEST_PARAMETERS": GatewayResponse(400, TEMPLATE)}
    api = ApiGateway(ROUTES, _echo, lambda _line: None, 0, "v1", responses, LIMITS)
    api.mount("/console", lambda request: Reply(200, json.dumps({"console": request.path}).encode()))
    api.start()
    yield api
    api.stop()


def _serving(gateway: ApiGateway) -> bool:
    return requests.get(f"{gateway.url}/items/7", timeout=5).json()["path"] == "/items/7"


def _raw(gateway: ApiGateway, *chunks: bytes, pause: float = 0.0) -> tuple[int, dict[str, Any], float]:
    """Send `chunks` (pausing between them) on a connection of its own; the status, body and seconds
    from the first byte to the answer."""
    with socket.create_connection(("127.0.0.1", gateway.port), timeout=10) as sock:
        started = time.monotonic()
        try:
            for chunk in chunks:
                sock.sendall(chunk)
                time.sleep(pause)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered and closed before the client finished: as it should
        reply = http.client.HTTPResponse(sock)  # headers and body may arrive in separate segments
        reply.begin()
        return reply.status, json.loads(reply.read()), time.monotonic() - started


def test_a_missing_required_parameter_gets_the_templates_gateway_response(gateway: ApiGateway) -> None:
    response = requests.get(f"{gateway.url}/items", timeout=5)
    reason = "Missing required request parameters: [kind]"
    assert response.status_code == 400
    assert response.json() == {
        "message": reason,
        "errors": [{"field": "parameters", "in": "request", "message": reason}],
    }


@pytest.mark.parametrize(
    ("method", "path"), [("GET", "/nowhere"), ("DELETE", "/items/1"), ("TRACE", "/items")]
)
def test_a_route_or_method_the_api_lacks_is_403_missing_authentication_token(
    gateway: ApiGateway, method: str, path: str
) -> None:
    """API Gateway with IAM authorization answers so (never a 404, never a 501 page)."""
    response = requests.request(method, f"{gateway.url}{path}", timeout=5)
    assert response.status_code == 403
    assert response.json() == {"message": "Missing Authentication Token"}


def test_a_body_over_10_mb_is_a_413_json(gateway: ApiGateway) -> None:
    response = requests.post(f"{gateway.url}/items", data=b"x" * (MAX_PAYLOAD_BYTES + 1), timeout=30)
    assert response.status_code == 413
    assert response.json() == {"message": "Request Too Long"}


def test_a_body_past_lambdas_6_mb_is_api_gateways_500_and_never_reaches_the_function(
    gateway: ApiGateway,
) -> None:
    """Lambda's documentation: an invocation the Lambda API rejects is a 500 `Internal server error`."""
    INVOKED.clear()
    response = requests.post(f"{gateway.url}/items", data=b"x" * (7 * 1024 * 1024), timeout=30)
    assert (response.status_code, response.json()) == (500, {"message": "Internal server error"})
    assert INVOKED == []
    just_fits = requests.post(f"{gateway.url}/items", data=b"x" * (LAMBDA_PAYLOAD_BYTES - 4096), timeout=30)
    assert just_fits.json()["bytes"] == LAMBDA_PAYLOAD_BYTES - 4096


def test_no_answer_within_the_integration_timeout_is_a_504(gateway: ApiGateway) -> None:
    started = time.monotonic()
    response = requests.get(f"{gateway.url}/slow", timeout=10)
    assert (response.status_code, response.json()) == (504, {"message": "Endpoint request timed out"})
    assert time.monotonic() - started < 2.5  # the gateway's 1 s, not the function's 3 s


def test_a_url_too_long_is_a_414_json(gateway: ApiGateway) -> None:
    response = requests.get(f"{gateway.url}/items/{'x' * 70_000}", timeout=5)
    assert response.status_code == 414
    assert response.json()["message"]


@pytest.mark.parametrize(
    "length", ["-5", "5, 6", "0x10", "١٢"], ids=["negative", "two values", "hex", "arabic digits"]
)
def test_a_malformed_content_length_is_a_400_json_and_the_server_lives_on(
    gateway: ApiGateway, length: str
) -> None:
    head = f"POST /items HTTP/1.1\r\nHost: x\r\nContent-Length: {length}\r\n\r\n".encode()
    status, body, _ = _raw(gateway, head)
    reason = "is not one number of bytes"
    assert status == 400 and body == {
        "message": f"Content-Length: {reason}",
        "errors": [{"field": "Content-Length", "in": "header", "message": reason}],
    }
    assert _serving(gateway)


@pytest.mark.parametrize("length", ["99999999999999999999", str(8 * 1024**3)], ids=["absurd", "8 GB"])
def test_an_absurd_or_huge_content_length_is_a_413_at_once(gateway: ApiGateway, length: str) -> None:
    status, body, seconds = _raw(
        gateway, f"POST /items HTTP/1.1\r\nHost: x\r\nContent-Length: {length}\r\n\r\n".encode()
    )
    assert (status, body) == (413, {"message": "Request Too Long"}) and seconds < LIMITS.read_timeout
    assert _serving(gateway)


def test_a_slowloris_client_gets_a_408_within_the_read_timeout(gateway: ApiGateway) -> None:
    head = b"GET /items/1 HTTP/1.1\r\nHost: x\r\nX-Drip: " + b"a" * 40
    status, body, seconds = _raw(gateway, *(head[i : i + 1] for i in range(len(head))), pause=0.05)
    assert (status, body) == (408, {"message": "Request Timeout"})
    assert seconds < LIMITS.read_timeout + 1.0
    assert _serving(gateway)


def test_a_body_shorter_than_its_content_length_gets_a_408_within_the_read_timeout(
    gateway: ApiGateway,
) -> None:
    status, body, seconds = _raw(
        gateway, b"POST /items HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n" + b"x" * 10
    )
    assert (status, body) == (408, {"message": "Request Timeout"})
    assert LIMITS.read_timeout - 0.2 < seconds < LIMITS.read_timeout + 1.0
    assert _serving(gateway)


def test_an_idle_connection_is_closed_after_the_idle_timeout(gateway: ApiGateway) -> None:
    with socket.create_connection(("127.0.0.1", gateway.port), timeout=10) as sock:
        started = time.monotonic()
        assert sock.recv(1) == b""  # closed without an answer: no request was sent
        assert LIMITS.idle_timeout - 0.2 < time.monotonic() - started < LIMITS.idle_timeout + 2.0


def test_a_mounted_prefix_is_served_by_its_own_handler(gateway: ApiGateway) -> None:
    assert requests.get(f"{gateway.url}/console/x", timeout=5).json() == {"console": "/console/x"}
    assert requests.get(f"{gateway.url}/consoles", timeout=5).status_code == 403


def test_requests_are_read_whole_on_keep_alive_connections(gateway: ApiGateway) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", gateway.port, timeout=5)
    for n in range(3):
        connection.request("POST", "/items", body=b"y" * n)
        assert json.loads(connection.getresponse().read())["bytes"] == n
