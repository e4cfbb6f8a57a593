"""tatami/local/api_gateway.py over real HTTP (a stub function): API Gateway's own answers are JSON in
the error shape, whatever the method, the size of the request or its headers (found by fuzzing: 501
HTML pages for methods like TRACE)."""

from __future__ import annotations

import http.client
import json
import socket
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tatami.local.api_gateway import MAX_PAYLOAD_BYTES, ApiGateway
from tatami.local.functions import Invocation
from tatami.local.routes import GatewayResponse, Route, RouteTable

ROUTES = RouteTable(
    [Route("GET", "/items/{id}", "Fn"), Route("GET", "/items", "Fn", required_query=("kind",))]
)
TEMPLATE = '{"message": $context.error.messageString, "errors": [{"field": "parameters", "in": "request", "message": $context.error.messageString}]}'  # noqa: E501 - as the template has it


def _echo(_function: str, event: dict[str, Any], _timeout: float) -> Invocation:
    return Invocation("rid", True, result={"statusCode": 200, "body": json.dumps({"path": event["path"]})})


@pytest.fixture(scope="module")
def gateway() -> Iterator[ApiGateway]:
    responses = {"BAD_REQUEST_PARAMETERS": GatewayResponse(400, TEMPLATE)}
    api = ApiGateway(ROUTES, _echo, lambda _line: None, 0, "v1", responses)
    api.start()
    yield api
    api.stop()


def test_a_missing_required_parameter_gets_the_templates_gateway_response(gateway: ApiGateway) -> None:
    response = requests.get(f"{gateway.url}/items", timeout=5)
    reason = "Missing required request parameters: [kind]"
    assert response.status_code == 400
    assert response.json() == {
        "message": reason,
        "errors": [{"field": "parameters", "in": "request", "message": reason}],
    }


@pytest.mark.parametrize("method", ["TRACE", "CONNECT", "PROPFIND", "DELETE"])
def test_any_method_gets_a_json_answer_never_a_501_page(gateway: ApiGateway, method: str) -> None:
    response = requests.request(method, f"{gateway.url}/items/1", timeout=5)
    assert response.status_code == 404
    assert response.json() == {"message": f"no route for {method} /items/1"}


def test_a_body_over_10_mb_is_a_413_json(gateway: ApiGateway) -> None:
    response = requests.get(f"{gateway.url}/items/1", data=b"x" * (MAX_PAYLOAD_BYTES + 1), timeout=30)
    assert response.status_code == 413
    assert response.json() == {"message": "Request Too Long"}


def test_a_url_too_long_is_a_414_json(gateway: ApiGateway) -> None:
    response = requests.get(f"{gateway.url}/items/{'x' * 70_000}", timeout=5)
    assert response.status_code == 414
    assert response.json()["message"]


def test_a_malformed_content_length_is_a_400_json_and_the_server_lives_on(gateway: ApiGateway) -> None:
    with socket.create_connection(("127.0.0.1", gateway.port), timeout=5) as sock:
        sock.sendall(b"GET /items/1 HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n")
        reply = http.client.HTTPResponse(sock)  # headers and body may arrive in separate segments
        reply.begin()
        assert reply.status == 400 and "message" in json.loads(reply.read())
    connection = http.client.HTTPConnection("127.0.0.1", gateway.port, timeout=5)
    connection.request("GET", "/items/7")
    assert json.loads(connection.getresponse().read()) == {"path": "/items/7"}
