"""The REST API on http://127.0.0.1:<port>: API Gateway's proxy integration, locally.

Requests become REST (v1) proxy events for the function the template names; the function's
response becomes the HTTP response. What API Gateway itself answers is answered here the same
way: unknown route 404, missing required query parameter 400, body over 10 MB 413, a function
error or malformed response 502, an integration over 29 s 504. SigV4 signatures are not checked
locally (there are no credentials to check them against); API keys only need to be present.
"""

from __future__ import annotations

import sys
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from tatami.local import proxy
from tatami.local.functions import Invocation
from tatami.local.proxy import Reply, RequestData, gateway_reply, message, proxy_event, proxy_reply
from tatami.local.routes import GatewayResponse, RouteTable

MAX_PAYLOAD_BYTES = 10 * 1024 * 1024
INTEGRATION_TIMEOUT_SECONDS = 29.0
Invoke = Callable[[str, dict[str, Any], float], Invocation]
Mounted = Callable[[RequestData], Reply]  # a page served beside the API (the console), not a route


class _Server(ThreadingHTTPServer):
    # socketserver's default listen backlog is 5: a burst of new keep-alive clients (16 threads of a
    # load test, a benchmark) overflows it, and the kernel then holds back connections that API
    # Gateway would have accepted at once.
    request_queue_size = 128
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hung up before its answer (a load test stopping) is no error of ours."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
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
    ) -> None:
        self.routes = routes
        self.responses = dict(responses or {})  # the template's gateway responses, by type
        self.invoke = invoke
        self.log = log
        self.stage = stage
        self.server = _Server(("127.0.0.1", port), _handler_class(self))
        self.port = int(self.server.server_address[1])
        self._thread = threading.Thread(target=self.server.serve_forever, name="api-gateway", daemon=True)
        self._mounts: dict[str, Mounted] = {}

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def mount(self, prefix: str, handler: Mounted) -> None:
        """Serve `prefix` and everything under it with `handler`, before (and outside) the API's routes:
        the console lives on the API's port, but is no route of the template."""
        self._mounts[prefix.rstrip("/")] = handler

    def handle(self, request: RequestData) -> Reply:
        for prefix, mounted in self._mounts.items():
            if request.path == prefix or request.path.startswith(prefix + "/"):
                return mounted(request)
        found = self.routes.match(request.method, request.path)
        if found is None:
            return message(404, f"no route for {request.method} {request.path}")
        route, params = found
        query = parse_qs(request.query, keep_blank_values=True)
        missing = [name for name in route.required_query if name not in query]
        missing += [
            f"header {name}" for name in route.required_headers if request.header(name.lower()) is None
        ]
        if missing:
            text = f"Missing required request parameters: [{', '.join(missing)}]"
            response = self.responses.get("BAD_REQUEST_PARAMETERS")
            return gateway_reply(response, 400, text, request.request_id)
        if route.api_key_required and not request.header("x-api-key"):
            return message(403, "Forbidden")
        if route.function_id is None:
            return Reply(200, b"")
        event = proxy_event(route, params, request, self.stage)
        invocation = self.invoke(route.function_id, event, INTEGRATION_TIMEOUT_SECONDS)
        reply = proxy_reply(invocation)
        if reply.status in (502, 504):
            detail = f"{invocation.error.get('errorType')}: {invocation.error.get('errorMessage')}"
            if invocation.ok:
                detail = "malformed Lambda proxy response"
            self.log(
                f"ERROR request {request.request_id} (Lambda {invocation.request_id}) "
                f"{request.method} {request.path} -> {reply.status}: {detail}"
            )
        return reply


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

    def do_request(self) -> None:
        started = time.perf_counter()
        request_id = str(uuid.uuid4())
        try:
            body, too_large = self._read_body()
        except ValueError:
            self.send_error(400, "Content-Length is not a number of bytes")
            return
        split = urlsplit(self.path)
        request = RequestData(
            method=self.command,
            path=unquote(split.path) or "/",
            query=split.query,
            headers=list(self.headers.items()),
            body=body,
            client_ip=self.client_address[0],
            host=self.headers.get("host", "127.0.0.1"),
            request_id=request_id,
        )
        reply = message(413, "Request Too Long") if too_large else self.gateway.handle(request)
        self._send(reply, request_id)
        elapsed = (time.perf_counter() - started) * 1000
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
        request) as API Gateway's JSON errors, not HTML pages."""
        self.close_connection = True
        self._send(proxy.message(code, message or HTTPStatus(code).phrase), str(uuid.uuid4()))

    def _read_body(self) -> tuple[bytes, bool]:
        length = int(self.headers.get("content-length") or 0)
        if length < 0:
            raise ValueError(length)
        if length <= MAX_PAYLOAD_BYTES:
            return self.rfile.read(length), False
        remaining = length
        while remaining > 0:  # drain, so the client reads our 413 instead of a reset
            remaining -= len(self.rfile.read(min(remaining, 1 << 20)) or b"x" * remaining)
        return b"", True

    def _send(self, reply: Reply, request_id: str) -> None:
        self.send_response(reply.status)
        for name, value in reply.headers:
            self.send_header(name, value)
        self.send_header("x-amzn-RequestId", request_id)
        self.send_header("Content-Length", str(len(reply.body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(reply.body)

    def log_message(self, format: str, *args: Any) -> None:
        """Silenced: `do_request` writes one access-log line per request."""
