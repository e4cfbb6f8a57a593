"""The REST API on http://127.0.0.1:<port>: API Gateway's proxy integration, locally.

Requests become REST (v1) proxy events for the function the template names; the function's
response becomes the HTTP response. What API Gateway with IAM authorization itself answers is
answered here the same way: a route or method the API lacks 403 `Missing Authentication Token`, a
missing required query parameter 400, a body over 10 MB 413, and the integration's 500/502/504
(`integration`), each through the template's gateway response when it has one. SigV4 signatures
are not checked locally (there are no credentials to check them against); API keys only need to be
present. Before any of it, a request with a foreign Host or a write from another web origin is
refused (403, `loopback`): the server is for this machine's clients, not for the pages its browser
opens. Requests are read under deadlines (`exchange`, `request_reading`). `mount` serves a path
prefix with another handler (a console beside the API).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Mapping
from http.server import ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs

from tatami.local.gateway.exchange import MAX_PAYLOAD_BYTES, GatewayLimits, handler_class
from tatami.local.gateway.integration import Invoke, LambdaIntegration
from tatami.local.gateway.proxy import Reply, RequestData, field_error, gateway_reply, proxy_event
from tatami.local.gateway.routes import GatewayResponse, RouteTable
from tatami.local.loopback import refusal

__all__ = ["MAX_PAYLOAD_BYTES", "ApiGateway", "GatewayLimits", "Handle"]

Handle = Callable[[RequestData], Reply]


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
        self.server = _Server(("127.0.0.1", port), handler_class(self))
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
        refused = refusal(request.method, request.header, self.port)
        if refused is not None:  # a foreign Host (DNS rebinding) or a write from another web origin
            header, reason = refused
            self.log(f"refused {request.method} {request.path}: {header}: {reason} -> 403")
            return field_error(403, header, "header", reason)
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
