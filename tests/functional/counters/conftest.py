"""The counters API handler on moto: fast functional tests (nothing here is measured)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import boto3
import pytest

from tatami_functions.common.clients import aws_client
from tatami_functions.common.repository import forget_instances
from tatami_functions.counters.settings import CountersSettings
from tatami_functions.counters.table import COUNTERS, IDEMPOTENCY, SHARDS
from tests.support.lambda_runtime import FakeContext, api_event, moto_environment

TABLES = CountersSettings.environment(
    shards_table="shards", counters_table="counters", idempotency_table="idem"
)
# The declared tables (tests/infra/counters/test_counters.py ties the template to the same declarations).
SCHEMAS = {"shards": SHARDS, "counters": COUNTERS, "idem": IDEMPOTENCY}


def _reset_caches() -> None:
    from tatami_functions.counters import service, settings

    settings.settings.cache_clear()
    aws_client.cache_clear()
    forget_instances()
    service._cache.clear()


@pytest.fixture(scope="module")
def aws() -> Iterator[Any]:
    """moto with the three tables, once per module; tests use names of their own. Not per session:
    moto's state is global, and a mock left running would leak into other services' tests."""
    env = {
        **TABLES,
        "POWERTOOLS_SERVICE_NAME": "counters",
        "POWERTOOLS_METRICS_NAMESPACE": "Test",
        "POWERTOOLS_TRACE_DISABLED": "true",
    }
    with moto_environment(env):
        client = boto3.client("dynamodb")
        for table, schema in SCHEMAS.items():
            client.create_table(**schema.create_table_request(table))
        yield client
    _reset_caches()


Call = Callable[..., tuple[int, dict[str, Any], dict[str, str]]]
JSON = {"Content-Type": "application/json"}  # as every JSON client says (a body that does not is a 415)


@pytest.fixture
def call(aws: Any) -> Call:
    """Invoke the API handler: (status, JSON body, headers); each test starts with cold caches."""
    from tatami_functions.counters.handler import api

    _reset_caches()

    def invoke(
        method: str, path: str, body: Any = None, headers: dict[str, str] | None = None, **kwargs: Any
    ) -> tuple[int, dict[str, Any], dict[str, str]]:
        event = api_event(method, path, body=body, headers=JSON | (headers or {}), **kwargs)
        response = api(event, FakeContext("counters-write"))
        # REST (v1) responses carry headers as multiValueHeaders.
        headers = {name: values[-1] for name, values in (response.get("multiValueHeaders") or {}).items()}
        return response["statusCode"], json.loads(response["body"]), headers

    return invoke
