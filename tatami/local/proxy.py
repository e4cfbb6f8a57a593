"""API Gateway's Lambda proxy integration (REST, payload 1.0): the event a function receives and the
HTTP reply API Gateway makes of what it returns (502 for a crash or a malformed response, 504 past
the integration timeout)."""

from __future__ import annotations

import base64
import json
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from tatami.local.functions import Invocation
from tatami.local.routes import GatewayResponse, Route


@dataclass(frozen=True)
class Reply:
    status: int
    body: bytes
    headers: tuple[tuple[str, str], ...] = (("Content-Type", "application/json"),)


def message(status: int, text: str) -> Reply:
    return Reply(status, json.dumps({"message": text}).encode())


def gateway_reply(response: GatewayResponse | None, status: int, text: str, request_id: str) -> Reply:
    """API Gateway's own answer `text`, through the template's gateway response when it has one.

    Only the `$context` variables API Gateway fills for its errors are rendered (no VTL directives).

    >>> gateway_reply(GatewayResponse(None, '{"why": $context.error.messageString}'), 400, "no", "r").body
    b'{"why": "no"}'
    """
    if response is None or response.template is None:
        return message(response.status if response and response.status else status, text)
    body = (
        response.template.replace("$context.error.messageString", json.dumps(text))
        .replace("$context.error.message", text)
        .replace("$context.error.validationErrorString", text)
        .replace("$context.requestId", request_id)
    )
    return Reply(response.status or status, body.encode())


def proxy_event(route: Route, params: dict[str, str], request: RequestData, stage: str) -> dict[str, Any]:
    """The REST API (v1) proxy event API Gateway sends a Lambda function."""
    now = time.time()
    try:
        body, is_base64 = request.body.decode(), False
    except UnicodeDecodeError:
        body, is_base64 = base64.b64encode(request.body).decode(), True
    multi_query = parse_qs(request.query, keep_blank_values=True)
    multi_headers: dict[str, list[str]] = {}
    for name, value in request.headers:
        multi_headers.setdefault(name, []).append(value)
    return {
        "resource": route.resource_path,
        "path": request.path,
        "httpMethod": request.method,
        "headers": {name: values[-1] for name, values in multi_headers.items()},
        "multiValueHeaders": multi_headers,
        "queryStringParameters": {k: v[-1] for k, v in multi_query.items()} or None,
        "multiValueQueryStringParameters": multi_query or None,
        "pathParameters": params or None,
        "stageVariables": None,
        "requestContext": {
            "resourceId": "local",
            "resourcePath": route.resource_path,
            "httpMethod": request.method,
            "extendedRequestId": request.request_id,
            "requestId": request.request_id,
            "requestTime": time.strftime("%d/%b/%Y:%H:%M:%S +0000", time.gmtime(now)),
            "requestTimeEpoch": int(now * 1000),
            "path": f"/{stage}{request.path}",
            "accountId": "000000000000",
            "protocol": "HTTP/1.1",
            "stage": stage,
            "domainPrefix": "127",
            "domainName": request.host,
            "apiId": "local",
            "identity": {
                "sourceIp": request.client_ip,
                "userAgent": request.header("user-agent"),
                "apiKey": request.header("x-api-key"),
                "accessKey": None,
                "caller": None,
                "user": None,
                "userArn": None,
                "cognitoIdentityId": None,
            },
        },
        "body": body if request.body else None,
        "isBase64Encoded": is_base64,
    }


@dataclass
class RequestData:
    method: str
    path: str
    query: str
    headers: list[tuple[str, str]]
    body: bytes
    client_ip: str
    host: str
    request_id: str

    def header(self, name: str) -> str | None:
        return next((v for k, v in reversed(self.headers) if k.lower() == name), None)


def proxy_reply(invocation: Invocation) -> Reply:
    """Map a function's proxy response to HTTP, or to API Gateway's 502/504 when it failed."""
    if not invocation.ok:
        if invocation.error.get("errorType") == "Sandbox.Timedout":
            return message(504, "Endpoint request timed out")
        return message(502, "Internal server error")
    result = invocation.result
    if not isinstance(result, dict) or not isinstance(result.get("statusCode"), int | str):
        return message(502, "Internal server error")
    headers = [(k, str(v)) for k, v in (result.get("headers") or {}).items()]
    for name, values in (result.get("multiValueHeaders") or {}).items():
        headers.extend((name, str(v)) for v in values)
    body = result.get("body") or ""
    payload = base64.b64decode(body) if result.get("isBase64Encoded") else str(body).encode()
    if not any(k.lower() == "content-type" for k, _ in headers):
        headers.append(("Content-Type", "application/json"))
    return Reply(int(result["statusCode"]), payload, tuple(headers))
