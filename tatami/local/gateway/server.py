"""The REST API on http://127.0.0.1:<port>: API Gateway's proxy integration, locally.

Requests become REST (v1) proxy events for the function the template names; the function's
response becomes the HTTP response. What API Gateway with IAM authorization itself answers is
answered here the same way: a route or method the API lacks 403 `Missing Authentication Token`, a
missing required query parameter 400, a body over 10 MB 413, and the integration's 500/502/504
(`integration`), each through the template's gateway response when it has one. SigV4 signatures
are not checked locally (there are no credentials to check them against); API keys only need to be
present. Requests are read under deadlines (`request_reading`). `mount` serves a path prefix with
another handler (a console beside the API).
"""

from __future__ import annotations

import io
import sys
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tatami.local.gateway import proxy
from tatami.local.gateway.integration import Invoke, LambdaIntegration
from tatami.local.gateway.proxy import Reply, RequestData, gateway_reply, proxy_event
from tatami.local.gateway.request_reading import DeadlineReader, declared_length, drain
from tatami.local.gateway.routes import GatewayResponse, RouteTable

MAX_PAYLOAD_BYTES = 10 * 1024 * 1024  # API Gateway's REST payload quota
Handle = Callable[[RequestData], Reply]


@dataclass(frozen=True)
class GatewayLimits:
    """How long the local gateway waits: for a request to arrive whole once it started, for a next
    request on an idle connection, and for a function's answer (API Gateway's integration timeout)."""

    read_timeout: float = 10.0
    idle_timeout: float = 60.0
    integration_timeout: float = 29.0


class _Server(ThreadingHTTPServer):
    # socketserver's default listen backlog is 5: a burst of new keep-alive clients (16 threads of a
    # load test, a benchmark) overflows it, and the kernel then holds back connections that API
    # Gateway would have accepted at once.
    request_queue_size = 128
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hung up or stopped reading (a load test stopping) is no error of ours."""
        if not isinstance(sys.exc_info()[1], ConnectionError | TimeoutError):
            super().handle_error(request, client_address)


class ApiGateway:
    """Serves a RouteTable on 127.0.0.1:port in a background thread."""

    def __init__(
        self,
        routes: RouteTable,
        invoke: Invoke,
        log: Callable[[str], None],
        port: int,
        stage: str,
        responses: Mapping[str, GatewayResponse] | None = None,
        limits: GatewayLimits | None = None,
        on_response: Callable[[int, float], None] = lambda _status, _ms: None,
    ) -> None:
        self.routes = routes
        self.on_response = on_response  # each answer's status and latency (ms): API Gateway's metrics
        self.responses = dict(responses or {})  # the template's gateway responses, by type
        self.log = log
        self.stage = stage
        self.limits = limits or GatewayLimits()
        self.mounts: dict[str, Handle] = {}
        self.integration = LambdaIntegration(
            invoke, self.limits.integration_timeout, self.responses, self._error
        )
        self.server = _Server(("127.0.0.1", port), _handler_class(self))
        self.port = int(self.server.server_address[1])
        self._thread = threading.Thread(target=self.server.serve_forever, name="api-gateway", daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.integration.close()

    def mount(self, prefix: str, handle: Handle) -> None:
        """Serve every path under `prefix` with `handle` instead of the API's routes."""
        self.mounts[prefix.rstrip("/")] = handle

    def handle(self, request: RequestData) -> Reply:
        for prefix, mounted in self.mounts.items():
            if request.path == prefix or request.path.startswith(prefix + "/"):
                return mounted(request)
        found = self.routes.match(request.method, request.path)
        if found is None:
            return self._gateway("MISSING_AUTHENTICATION_TOKEN", 403, "Missing Authentication Token", request)
        route, params = found
        query = parse_qs(request.query, keep_blank_values=True)
        missing = [name for name in route.required_query if name not in query]
        missing += [
            f"header {name}" for name in route.required_headers if request.header(name.lower()) is None
        ]
        if missing:
            text = f"Missing required request parameters: [{', '.join(missing)}]"
            return self._gateway("BAD_REQUEST_PARAMETERS", 400, text, request)
        if route.api_key_required and not request.header("x-api-key"):
            return self._gateway("INVALID_API_KEY", 403, "Forbidden", request)
        if route.function_id is None:
            return Reply(200, b"")
        target = route.alias_id or route.function_id  # an integration that names an alias invokes it
        return self.integration(target, proxy_event(route, params, request, self.stage), request)

    def _gateway(self, kind: str, status: int, text: str, request: RequestData) -> Reply:
        return gateway_reply(self.responses.get(kind), status, text, request.request_id)

    def _error(self, request: RequestData, detail: str) -> None:
        self.log(f"ERROR request {request.request_id} {request.method} {request.path}: {detail}")


def _handler_class(gateway: ApiGateway) -> type[BaseHTTPRequestHandler]:
    return type("Handler", (_Handler,), {"gateway": gateway})


class _Handler(BaseHTTPRequestHandler):
    """One HTTP exchange: a request in, API Gateway's reply out (`gateway` is set per server)."""

    gateway: ApiGateway
    protocol_version = "HTTP/1.1"
    server_version = "tatami-local"
    # Headers and body leave in separate writes; with Nagle on, keep-alive clients wait ~40 ms
    # for a delayed ACK on every request.
    disable_nagle_algorithm = True

    def setup(self) -> None:
        super().setup()
        limits = self.gateway.limits
        self.reader = DeadlineReader(self.connection, limits.read_timeout, limits.idle_timeout)
        self.rfile = io.BufferedReader(self.reader)

    def handle_one_request(self) -> None:
        """One request under the reader's deadlines: a request that started but did not arrive
        whole in time is answered 408; an idle connection is closed."""
        self.reader.begin()
        self.request_version, self.command, self.requestline = "HTTP/1.1", "", ""  # until parsed
        super().handle_one_request()
        if self.reader.expired and self.reader.started:
            self.send_error(408, "Request Timeout")

    def do_request(self) -> None:
        started = time.perf_counter()
        request_id = str(uuid.uuid4())
        try:
            length = declared_length(self.headers)
        except ValueError as exc:
            self.send_error(400, str(exc))
            return
        if length > MAX_PAYLOAD_BYTES:
            drain(self.rfile, length)  # the client reads our 413 instead of a reset
            self.send_error(413, "Request Too Long")
            return
        body = self.rfile.read(length)
        if len(body) < length:  # the client hung up mid-body: nobody to answer
            self.close_connection = True
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
            request_id=request_id,
        )
        reply = self.gateway.handle(request)
        self._send(reply, request_id)
        elapsed = (time.perf_counter() - started) * 1000
        self.gateway.on_response(reply.status, elapsed)
        self.gateway.log(
            f"{request.client_ip} {request.method} {self.path} {reply.status} {elapsed:.1f} ms {request_id}"
        )

    def __getattr__(self, name: str) -> Any:
        # http.server dispatches to `do_<METHOD>` and answers 501 (HTML) when there is none;
        # API Gateway routes every method, answering those no resource has itself.
        if name.startswith("do_"):
            return self.do_request
        raise AttributeError(name)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """http.server's own refusals (a request line or headers too long, a malformed
        request) and the reader's as API Gateway's JSON errors, not HTML pages."""
        self.close_connection = True
        self.connection.settimeout(self.gateway.limits.read_timeout)
        self._send(proxy.message(code, message or HTTPStatus(code).phrase), str(uuid.uuid4()))

    def _send(self, reply: Reply, request_id: str) -> None:
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
