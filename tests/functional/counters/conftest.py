"""The counters API handler on moto: fast functional tests (nothing here is measured)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import boto3
import pytest
from moto import mock_aws

TABLES = {"COUNTER_SHARDS_TABLE": "shards", "COUNTERS_TABLE": "counters", "COUNTER_IDEMPOTENCY_TABLE": "idem"}
# The same key schemas as the template (tests/infra/test_counters.py ties the names to the code).
KEYS = {"shards": ["pk"], "counters": ["name", "item"], "idem": ["id"]}


@dataclass
class FakeContext:
    function_name: str = "counters-write"
    memory_limit_in_mb: int = 512
    invoked_function_arn: str = "arn:aws:lambda:us-east-1:123456789012:function:counters-write"
    aws_request_id: str = "req"

    def get_remaining_time_in_millis(self) -> int:
        return 10_000


def _reset_caches() -> None:
    from counters import clients, configs, increments, settings

    settings.settings.cache_clear()
    clients.dynamodb.cache_clear()
    increments._keyed_apply.cache_clear()
    increments._idempotency_config.cache_clear()
    configs._cache.clear()


@pytest.fixture(scope="module")
def aws() -> Iterator[Any]:
    """moto with the three tables, once per module; tests use names of their own. Not per session:
    moto's state is global, and a mock left running would leak into other services' tests."""
    env = {
        **TABLES,
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "POWERTOOLS_SERVICE_NAME": "counters",
        "POWERTOOLS_METRICS_NAMESPACE": "Test",
        "POWERTOOLS_TRACE_DISABLED": "true",
    }
    with pytest.MonkeyPatch.context() as patch, mock_aws():
        for name, value in env.items():
            patch.setenv(name, value)
        client = boto3.client("dynamodb")
        for table, keys in KEYS.items():
            client.create_table(
                TableName=table,
                KeySchema=[
                    {"AttributeName": k, "KeyType": t} for k, t in zip(keys, ("HASH", "RANGE"), strict=False)
                ],
                AttributeDefinitions=[{"AttributeName": k, "AttributeType": "S"} for k in keys],
                BillingMode="PAY_PER_REQUEST",
            )
        yield client
    _reset_caches()


Call = Callable[..., tuple[int, dict[str, Any], dict[str, str]]]


def event(
    method: str,
    path: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
    query: dict[str, str] | None = None,
) -> dict[str, Any]:
    """A REST (v1) proxy event as API Gateway sends it."""
    headers = headers or {}
    return {
        "resource": path,
        "path": path,
        "httpMethod": method,
        "headers": headers,
        "multiValueHeaders": {k: [v] for k, v in headers.items()},
        "queryStringParameters": query,
        "multiValueQueryStringParameters": {k: [v] for k, v in query.items()} if query else None,
        "pathParameters": None,
        "body": body if isinstance(body, str) or body is None else json.dumps(body),
        "isBase64Encoded": False,
        "requestContext": {
            "requestId": uuid.uuid4().hex,
            "stage": "v1",
            "identity": {"sourceIp": "127.0.0.1"},
        },
    }


@pytest.fixture
def call(aws: Any) -> Call:
    """Invoke the API handler: (status, JSON body, headers); each test starts with cold caches."""
    from counters.handler import api

    _reset_caches()

    def invoke(
        method: str, path: str, body: Any = None, **kwargs: Any
    ) -> tuple[int, dict[str, Any], dict[str, str]]:
        response = api(event(method, path, body, **kwargs), FakeContext())
        # REST (v1) responses carry headers as multiValueHeaders.
        headers = {name: values[-1] for name, values in (response.get("multiValueHeaders") or {}).items()}
        return response["statusCode"], json.loads(response["body"]), headers

    return invoke
