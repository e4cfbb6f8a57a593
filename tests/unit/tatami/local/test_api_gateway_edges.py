"""tatami/local/gateway over real sockets (a stub function): the edges where the local gateway now
answers as API Gateway does (issue 36): its own 400s carry the `errors` array; chunked bodies are read
whole and leave the connection in step; a declared body past 10 MB is a 413 at once, before a
client that waits for `100 Continue` sends it; sizes are bytes as sent (a Japanese body is not
measured in `\\u` escapes); headers too long are a 431 in JSON."""

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
from tatami.local.gateway.routes import Route, RouteTable
from tatami.local.gateway.server import MAX_PAYLOAD_BYTES, ApiGateway, GatewayLimits

LIMITS = GatewayLimits(read_timeout=2.0, idle_timeout=5.0, integration_timeout=5.0)
KANA = "あ"  # 3 bytes in UTF-8, 6 as the JSON escape \u3042
INVOKED: list[str] = []


def _echo(_function: str, event: dict[str, Any], _timeout: float | None) -> Invocation:
    INVOKED.append(event["path"])
    if event["path"] == "/kana":  # an answer of 2.2 million kana: 6.6 MB as sent, 2.2 M characters
        return Invocation("rid", True, result={"statusCode": 200, "body": KANA * 2_200_000})
    body = {"body": event["body"] or "", "characters": len(event["body"] or "")}
    return Invocation("rid", True, result={"statusCode": 200, "body": json.dumps(body, ensure_ascii=False)})


@pytest.fixture(scope="module")
def gateway() -> Iterator[ApiGateway]:
    routes = RouteTable(
        [Route("POST", "/items", "Fn"), Route("GET", "/items", "Fn"), Route("GET", "/kana", "Fn")]
    )
    api = ApiGateway(routes, _echo, lambda _line: None, 0, "v1", limits=LIMITS)
    api.start()
    yield api
    api.stop()


def _connect(gateway: ApiGateway) -> socket.socket:
    return socket.create_connection(("127.0.0.1", gateway.port), timeout=10)


def _answer(sock: socket.socket) -> tuple[int, dict[str, Any]]:
    reply = http.client.HTTPResponse(sock)
    reply.begin()
    return reply.status, json.loads(reply.read())


def _head(gateway: ApiGateway, *lines: str) -> bytes:
    fields = [f"Host: 127.0.0.1:{gateway.port}", *lines]
    return ("POST /items HTTP/1.1\r\n" + "".join(f"{line}\r\n" for line in fields) + "\r\n").encode()


def test_a_chunked_body_reaches_the_function_whole_and_the_next_request_stays_in_step(
    gateway: ApiGateway,
) -> None:
    with _connect(gateway) as sock:
        chunks = b"5;note=first\r\nhello\r\n7\r\n, world\r\n0\r\nX-Trailer: ignored\r\n\r\n"
        sock.sendall(_head(gateway, "Transfer-Encoding: chunked") + chunks)
        assert _answer(sock) == (200, {"body": "hello, world", "characters": 12})
        sock.sendall(_head(gateway, "Content-Length: 2") + b"ok")  # the same connection, read in step
        assert _answer(sock) == (200, {"body": "ok", "characters": 2})


@pytest.mark.parametrize(
    ("lines", "chunks", "reason"),
    [
        (["Transfer-Encoding: chunked"], b"zz\r\n", "chunk size zz is not hexadecimal"),
        (["Transfer-Encoding: chunked"], b"2\r\nabc\r\n0\r\n\r\n", "a chunk is longer than its size says"),
        (
            ["Transfer-Encoding: chunked", "Content-Length: 3"],
            b"",
            "a request with Content-Length too is refused",
        ),
        (["Transfer-Encoding: gzip, chunked"], b"", "gzip, chunked is not supported: chunked is"),
    ],
    ids=["size not hex", "chunk too long", "both lengths", "gzip"],
)
def test_a_chunked_body_that_cannot_be_read_is_a_400_naming_transfer_encoding(
    gateway: ApiGateway, lines: list[str], chunks: bytes, reason: str
) -> None:
    INVOKED.clear()
    with _connect(gateway) as sock:
        sock.sendall(_head(gateway, *lines) + chunks)
        status, body = _answer(sock)
    assert (status, body["errors"]) == (
        400,
        [{"field": "Transfer-Encoding", "in": "header", "message": reason}],
    )
    assert body["message"] == f"Transfer-Encoding: {reason}" and INVOKED == []


def test_a_chunked_body_past_10_mb_is_a_413_at_its_first_chunk_past_it(gateway: ApiGateway) -> None:
    with _connect(gateway) as sock:
        started = time.monotonic()
        sock.sendall(_head(gateway, "Transfer-Encoding: chunked") + f"{MAX_PAYLOAD_BYTES + 1:x}\r\n".encode())
        assert _answer(sock) == (413, {"message": "Request Too Long"})
        assert time.monotonic() - started < 1.0


def test_a_declared_body_past_10_mb_is_a_413_at_once_not_a_408_after_the_read_timeout(
    gateway: ApiGateway,
) -> None:
    with _connect(gateway) as sock:
        started = time.monotonic()
        sock.sendall(_head(gateway, f"Content-Length: {MAX_PAYLOAD_BYTES + 1}") + b"x" * 1000)
        assert _answer(sock) == (413, {"message": "Request Too Long"})
        assert time.monotonic() - started < LIMITS.read_timeout / 2


def test_a_client_waiting_for_100_continue_hears_413_instead_and_sends_nothing(gateway: ApiGateway) -> None:
    with _connect(gateway) as sock:
        sock.sendall(_head(gateway, f"Content-Length: {MAX_PAYLOAD_BYTES + 1}", "Expect: 100-continue"))
        assert _answer(sock) == (413, {"message": "Request Too Long"})  # no `100 Continue` before it
    with _connect(gateway) as sock:  # a body within the limit is asked for, and served
        sock.sendall(_head(gateway, "Content-Length: 2", "Expect: 100-continue"))
        interim = b""
        while not interim.endswith(b"\r\n\r\n"):
            interim += sock.recv(1)
        assert interim == b"HTTP/1.1 100 Continue\r\n\r\n"
        sock.sendall(b"ok")
        assert _answer(sock) == (200, {"body": "ok", "characters": 2})


def test_a_request_line_it_cannot_parse_is_a_400_with_the_errors_array(gateway: ApiGateway) -> None:
    with _connect(gateway) as sock:
        sock.sendall(b"GET /items HTTP/9.x\r\nHost: 127.0.0.1\r\n\r\n")
        status, body = _answer(sock)
    assert status == 400 and [error["field"] for error in body["errors"]] == ["request"]
    assert body["message"].startswith("request: Bad request version")


def test_headers_too_long_are_a_431_in_json(gateway: ApiGateway) -> None:
    response = requests.get(f"{gateway.url}/items", headers={"X-Long": "x" * 70_000}, timeout=5)
    assert response.status_code == 431 and response.json()["message"]


def test_a_japanese_body_is_measured_in_bytes_as_sent_not_in_json_escapes(gateway: ApiGateway) -> None:
    """1.1 million kana: 3.3 MB of UTF-8, within Lambda's 6 MB; 6.6 MB as `\\u` escapes, which it is not."""
    text = KANA * 1_100_000
    assert len(text.encode()) < LAMBDA_PAYLOAD_BYTES < len(json.dumps(text))
    response = requests.post(f"{gateway.url}/items", data=text.encode(), timeout=30)
    assert response.status_code == 200 and response.json()["characters"] == 1_100_000


def test_an_answer_past_6_mb_in_bytes_is_a_502_though_its_characters_are_fewer(gateway: ApiGateway) -> None:
    response = requests.get(f"{gateway.url}/kana", timeout=30)
    assert (response.status_code, response.json()) == (502, {"message": "Internal server error"})
