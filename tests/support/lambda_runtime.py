"""What tests of Lambda handlers share: a fake context, API Gateway REST (v1) proxy events, moto.

Handlers run in-process: a resolver takes the event API Gateway would send, a decorated handler
also wants the context Lambda passes (Powertools reads its name, ARN and request id).
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from unittest import mock

from moto import mock_aws

# moto needs a region and credentials; fake ones keep a test from ever reaching a real account.
FAKE_AWS = {
    "AWS_DEFAULT_REGION": "us-east-1",
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
}


@dataclass(frozen=True)
class FakeContext:
    """The parts of a Lambda context that Powertools' decorators read.

    >>> FakeContext("ip-lookup").invoked_function_arn
    'arn:aws:lambda:us-east-1:123456789012:function:ip-lookup'
    """

    function_name: str = "tatami-test"
    memory_limit_in_mb: int = 512
    aws_request_id: str = "req"

    @property
    def invoked_function_arn(self) -> str:
        return f"arn:aws:lambda:us-east-1:123456789012:function:{self.function_name}"

    def get_remaining_time_in_millis(self) -> int:
        return 10_000


def api_event(
    method: str,
    path: str,
    *,
    body: Any = None,
    query: Mapping[str, str] | None = None,
    headers: Mapping[str, str] | None = None,
    resource: str | None = None,
    path_parameters: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """A REST (v1) proxy event as API Gateway sends it: `path` as sent (percent-encoded), a JSON
    body unless `body` is already text, JSON content unless `headers` say otherwise.

    >>> event = api_event("GET", "/lockers", query={"state": "東京都"})
    >>> event["multiValueQueryStringParameters"], event["body"]
    ({'state': ['東京都']}, None)
    """
    headers = {"Content-Type": "application/json"} if headers is None else dict(headers)
    resource = resource or path
    return {
        "resource": resource,
        "path": path,
        "httpMethod": method,
        "headers": headers,
        "multiValueHeaders": {name: [value] for name, value in headers.items()},
        "queryStringParameters": dict(query) if query else None,
        "multiValueQueryStringParameters": {k: [v] for k, v in query.items()} if query else None,
        "pathParameters": dict(path_parameters) if path_parameters else None,
        "body": body if body is None or isinstance(body, str) else json.dumps(body),
        "isBase64Encoded": False,
        "requestContext": {
            "requestId": uuid.uuid4().hex,
            "stage": "v1",
            "httpMethod": method,
            "path": path,
            "resourcePath": resource,
            "identity": {"sourceIp": "127.0.0.1"},
        },
    }


def status_and_body(response: Mapping[str, Any]) -> tuple[int, Any]:
    """A proxy response's status code and its JSON body (None when it has none)."""
    return response["statusCode"], json.loads(response["body"]) if response.get("body") else None


def resolve(app: Any, method: str, path: str, **event: Any) -> tuple[int, Any]:
    """One `api_event` through a resolver (no handler, no context): its status and JSON body."""
    return status_and_body(app.resolve(api_event(method, path, **event), None))


def assert_400_naming(status: int, body: Mapping[str, Any], field: str) -> None:
    """A 400 whose message has a part "<field>: ..." (the contract of tatami_functions.common.api)."""
    message = body["message"]
    assert status == 400, message
    assert any(part.startswith(f"{field}:") for part in message.split("; ")), message


@contextmanager
def moto_environment(env: Mapping[str, str]) -> Iterator[None]:
    """moto running, with fake credentials and `env` set; the environment as it was afterwards."""
    with mock.patch.dict(os.environ, {**FAKE_AWS, **env}), mock_aws():
        yield
