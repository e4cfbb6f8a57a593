"""API Gateway's Lambda proxy integration (REST, payload 1.0): the event a function receives and the
HTTP reply API Gateway makes of what it returns. Lambda's documentation ("Handling Lambda errors with
an API Gateway API"): an invocation Lambda rejects is a 500, a function that runs but fails (an
error, its timeout) or returns a response in the wrong format or past 6 MB is a 502, both with
`{"message": "Internal server error"}`; the gateway's own 504 is `api_gateway`'s."""

from __future__ import annotations

import base64
import json
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from tatami.local.functions.pool import Invocation
from tatami.local.gateway.routes import GatewayResponse, Route

LAMBDA_RESPONSE_BYTES = 6 * 1024 * 1024 + 100  # Lambda's synchronous response limit, as measured


@dataclass(frozen=True)
class Reply:
    status: int
    body: bytes
    headers: tuple[tuple[str, str], ...] = (("Content-Type", "application/json"),)
    why: str = ""  # for the log: why the gateway answered so (never sent)


def message(status: int, text: str) -> Reply:
    return Reply(status, json.dumps({"message": text}).encode())


def field_error(status: int, field: str, where: str, reason: str) -> Reply:
    """An answer in the functions' shape of a 400 (`tatami_functions.common.api`): the message names the
    field, and `errors` lists it with where it is (header, body, request).

    >>> json.loads(field_error(400, "Content-Length", "header", "is not one number").body)["message"]
    'Content-Length: is not one number'
    """
    errors = [{"field": field, "in": where, "message": reason}]
    return Reply(status, json.dumps({"message": f"{field}: {reason}", "errors": errors}).encode())


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


def invocation_bytes(payload: Any) -> int:
    """The size of an invocation's payload as Lambda counts it: its JSON text in UTF-8, as sent (API
    Gateway's events and Python 3.12+ runtimes' answers carry text unescaped: a kana is 3 bytes, not
    the 6 of `\\u30a2`).

    >>> invocation_bytes({"body": "ア"}), len(json.dumps({"body": "ア"}))
    (15, 18)
    """
    return len(json.dumps(payload, ensure_ascii=False).encode())


def proxy_reply(invocation: Invocation) -> Reply:
    """Map a function's proxy response to HTTP, or to API Gateway's 502 when the function failed
    (an error or its timeout), answered too much or answered in the wrong shape."""
    if not invocation.ok:
        return _failed("the function failed")
    result = invocation.result
    if not isinstance(result, dict) or not isinstance(result.get("statusCode"), int | str):
        return _failed("malformed Lambda proxy response")
    if len(str(result.get("body") or "")) > LAMBDA_RESPONSE_BYTES // 6:  # else it cannot be past it
        size = invocation_bytes(result)
        if size > LAMBDA_RESPONSE_BYTES:
            return _failed(f"response of {size} bytes is past Lambda's {LAMBDA_RESPONSE_BYTES}")
    headers = [(k, str(v)) for k, v in (result.get("headers") or {}).items()]
    for name, values in (result.get("multiValueHeaders") or {}).items():
        headers.extend((name, str(v)) for v in values)
    body = result.get("body") or ""
    payload = base64.b64decode(body) if result.get("isBase64Encoded") else str(body).encode()
    if not any(k.lower() == "content-type" for k, _ in headers):
        headers.append(("Content-Type", "application/json"))
    return Reply(int(result["statusCode"]), payload, tuple(headers))


def _failed(why: str) -> Reply:
    return Reply(502, json.dumps({"message": "Internal server error"}).encode(), why=why)
