"""One HTTP exchange on the local API gateway: a request read as API Gateway's front door reads it
(under deadlines, its body by Content-Length or in chunks: `request_reading`), handed to the gateway,
and its reply written; and the gateway's own answers to what it cannot read, in JSON: 400 with the
`errors` array (a malformed Content-Length or chunked body, a broken request line), 408 (a request
that did not arrive in time), 413 at once for a body past 10 MB (before a client that waits for
`100 Continue` sends it), 414 (a URL too long), 431 (headers too long or too many).
"""

from __future__ import annotations

import io
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler
from typing import Any, Protocol
from urllib.parse import urlsplit

from tatami.local.gateway import proxy
from tatami.local.gateway.proxy import Reply, RequestData
from tatami.local.gateway.request_reading import (
    BodyTooLargeError,
    DeadlineReader,
    MalformedRequestError,
    declared_length,
    drain,
    read_body,
)

__all__ = ["MAX_PAYLOAD_BYTES", "Gateway", "GatewayLimits", "handler_class"]

MAX_PAYLOAD_BYTES = 10 * 1024 * 1024  # API Gateway's REST payload quota
TOO_LARGE = proxy.message(413, "Request Too Long")  # API Gateway's words


@dataclass(frozen=True)
class GatewayLimits:
    """How long the local gateway waits: for a request to arrive whole once it started, for a next
    request on an idle connection, and for a function's answer (API Gateway's integration timeout)."""

    read_timeout: float = 10.0
    idle_timeout: float = 60.0
    integration_timeout: float = 29.0


class Gateway(Protocol):
    """What an exchange asks of the server it serves (`server.ApiGateway`)."""

    limits: GatewayLimits
    on_response: Callable[[int, float], None]
    log: Callable[[str], None]

    def handle(self, request: RequestData) -> Reply: ...


def handler_class(gateway: Gateway) -> type[BaseHTTPRequestHandler]:
    return type("Handler", (_Exchange,), {"gateway": gateway})


class _Exchange(BaseHTTPRequestHandler):
    """One HTTP exchange: a request in, API Gateway's reply out (`gateway` is set per server)."""

    gateway: Gateway
    protocol_version = "HTTP/1.1"
    # http.server assumes HTTP/0.9 until the request line parses, and a 0.9 answer has no status line:
    # a refusal of a broken request line must still be an HTTP answer a client can read.
    default_request_version = "HTTP/1.1"
    server_version = "tatami-local"
    # Headers and body leave in separate writes; with Nagle on, keep-alive clients wait ~40 ms
    # for a delayed ACK on every request.
    disable_nagle_algorithm = True

    def setup(self) -> None:
        super().setup()
        limits = self.gateway.limits
        self.reader = DeadlineReader(self.connection, limits.read_timeout, limits.idle_timeout)
        self.rfile = io.BufferedReader(self.reader)
        self.answered = False

    def handle_one_request(self) -> None:
        """One request under the reader's deadlines: a request that started but did not arrive
        whole in time is answered 408 (unless it was answered already); an idle connection is closed."""
        self.reader.begin()
        self.answered = False
        self.request_version, self.command, self.requestline = "HTTP/1.1", "", ""  # until parsed
        super().handle_one_request()
        if self.reader.expired and self.reader.started and not self.answered:
            self.send_error(408, "Request Timeout")

    def handle_expect_100(self) -> bool:
        """A client waiting for `100 Continue` before its body (curl does past 1 MB) hears 413 instead
        when the length it declares is past the limit, and sends nothing."""
        try:
            too_large = declared_length(self.headers) > MAX_PAYLOAD_BYTES
        except MalformedRequestError:
            too_large = False  # `do_request` answers it
        if too_large:
            self._refuse(TOO_LARGE)
            return False
        return super().handle_expect_100()

    def do_request(self) -> None:
        started = time.perf_counter()
        body = self._body()
        if body is None:
            return
        self.connection.settimeout(self.gateway.limits.read_timeout)  # for writing the reply
        split = urlsplit(self.path)
        request = RequestData(
            method=self.command,
            # As API Gateway's REST API: routed, and handed to the function, still percent-encoded (an
            # encoded '/' stays inside its path parameter); the function decodes each parameter once.
            path=split.path or "/",
            query=split.query,
            headers=list(self.headers.items()),
            body=body,
            client_ip=self.client_address[0],
            host=self.headers.get("host", "127.0.0.1"),
            request_id=str(uuid.uuid4()),
        )
        reply = self.gateway.handle(request)
        self._send(reply, request.request_id)
        elapsed = (time.perf_counter() - started) * 1000
        self.gateway.on_response(reply.status, elapsed)
        self.gateway.log(
            f"{request.client_ip} {request.method} {self.path} {reply.status} {elapsed:.1f} ms "
            f"{request.request_id}"
        )

    def _body(self) -> bytes | None:
        """The request's body; None once the request is refused, or when its client hung up mid-body."""
        try:
            body = read_body(self.rfile, self.headers, MAX_PAYLOAD_BYTES)
        except MalformedRequestError as exc:
            self._refuse(proxy.field_error(400, exc.field, "header", exc.reason))
            return None
        except BodyTooLargeError as exc:
            self._refuse(TOO_LARGE)  # at once, then what the client still sends is read and dropped
            if exc.declared is not None:
                drain(self.rfile, exc.declared)
            return None
        if body is None:  # nobody left to answer
            self.close_connection = True
        return body

    def __getattr__(self, name: str) -> Any:
        # http.server dispatches to `do_<METHOD>` and answers 501 (HTML) when there is none;
        # API Gateway routes every method, answering those no resource has itself.
        if name.startswith("do_"):
            return self.do_request
        raise AttributeError(name)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """http.server's own refusals (a request line or headers too long, a malformed request) and
        the reader's as API Gateway's JSON errors, not HTML pages; a 400 lists what is wrong."""
        text = message or HTTPStatus(code).phrase
        if code == 400:
            self._refuse(proxy.field_error(code, "request", "request", text))
        else:
            self._refuse(proxy.message(code, text))

    def _refuse(self, reply: Reply) -> None:
        """Answer a request the gateway will not serve, and close the connection after it."""
        self.close_connection = True
        self.connection.settimeout(self.gateway.limits.read_timeout)
        self._send(reply, str(uuid.uuid4()))

    def _send(self, reply: Reply, request_id: str) -> None:
        self.answered = True
        self.send_response(reply.status)
        for name, value in reply.headers:
            self.send_header(name, value)
        self.send_header("x-amzn-RequestId", request_id)
        self.send_header("Content-Length", str(len(reply.body)))
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(reply.body)

    def log_message(self, format: str, *args: Any) -> None:
        """Silenced: `do_request` writes one access-log line per request."""
