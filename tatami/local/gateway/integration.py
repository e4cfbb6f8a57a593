"""API Gateway's Lambda proxy integration, within the limits AWS sets on it.

Lambda's documentation ("Handling Lambda errors with an API Gateway API"): an invocation the Lambda
API rejects is a 500, so an event past Lambda's 6 MB synchronous invoke limit (API Gateway itself
takes 10 MB) never reaches the function; a function that fails, times out or answers wrongly is a
502 (`proxy.proxy_reply`). API Gateway stops waiting at its integration timeout (504, `Endpoint
request timed out`) while the function runs on to its own timeout: the invocation runs beside the
request's thread, so the gateway can give up on it as AWS does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as NoAnswerYet
from typing import Any

from tatami.local.functions.pool import Invocation
from tatami.local.gateway.proxy import (
    Reply,
    RequestData,
    gateway_reply,
    invocation_bytes,
    message,
    proxy_reply,
)
from tatami.local.gateway.routes import GatewayResponse

LAMBDA_PAYLOAD_BYTES = 6 * 1024 * 1024  # Lambda's synchronous invoke request limit (6,291,456)
Invoke = Callable[[str, dict[str, Any], "float | None"], Invocation]


class LambdaIntegration:
    """Invokes a route's function with its proxy event and makes API Gateway's reply of the outcome."""

    def __init__(
        self,
        invoke: Invoke,
        timeout: float,
        responses: Mapping[str, GatewayResponse],
        log: Callable[[RequestData, str], None],
    ) -> None:
        self.invoke, self.timeout, self.responses, self.log = invoke, timeout, responses, log
        self._running = ThreadPoolExecutor(256, thread_name_prefix="integration")

    def __call__(self, function_id: str, event: dict[str, Any], request: RequestData) -> Reply:
        # Measured only when it could be past the limit: JSON escapes a byte into at most 6 (`\\u001f`).
        size = invocation_bytes(event) if len(request.body) > LAMBDA_PAYLOAD_BYTES // 6 else 0
        if size > LAMBDA_PAYLOAD_BYTES:  # in Lambda's words
            self.log(
                request,
                f"Lambda refused the invocation: {size} byte payload is too large for the "
                f"RequestResponse invocation type (limit {LAMBDA_PAYLOAD_BYTES} bytes) -> 500",
            )
            return message(500, "Internal server error")
        running = self._running.submit(self.invoke, function_id, event, None)
        try:
            invocation = running.result(timeout=self.timeout)
        except NoAnswerYet:
            self.log(request, f"no answer within the integration timeout ({self.timeout:g} s) -> 504")
            response = self.responses.get("INTEGRATION_TIMEOUT")
            return gateway_reply(response, 504, "Endpoint request timed out", request.request_id)
        reply = proxy_reply(invocation)
        if reply.status == 502:
            error = invocation.error
            detail = f"{error.get('errorType')}: {error.get('errorMessage')}" if error else reply.why
            self.log(request, f"(Lambda {invocation.request_id}) {detail} -> 502")
        return reply

    def close(self) -> None:
        self._running.shutdown(wait=False, cancel_futures=True)
