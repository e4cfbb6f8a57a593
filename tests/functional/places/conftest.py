"""The places service on moto: fast functional tests of search, the API and the maintainer (nothing
here is measured: moto's Query sorts the whole table on every call)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import boto3
import pytest
from moto import mock_aws

from tatami_functions.common.tokens import PageTokenSettings
from tests.support.lambda_runtime import api_event
from tests.support.zindex import create_table, places_on, random_places, write_indexed
from zindex import ENV as ZINDEX_ENV
from zindex.analyze import analyze
from zindex.dynamodb import IndexRepository

TABLE = "places"


@dataclass
class FakeContext:
    function_name: str = "places-api"
    memory_limit_in_mb: int = 1769
    invoked_function_arn: str = "arn:aws:lambda:us-east-1:123456789012:function:places-api"
    aws_request_id: str = "req"

    def get_remaining_time_in_millis(self) -> int:
        return 10_000


def reset() -> None:
    """Forget what warm functions keep: the declaration, the searcher, clients, the token key."""
    from tatami_functions.common import index_search, tokens
    from tatami_functions.common.repository import forget_instances

    index_search.searcher.cache_clear()
    forget_instances()
    tokens._secret.cache_clear()


@pytest.fixture(scope="module")
def aws() -> Iterator[dict[str, Any]]:
    """moto with the places table (and 800 indexed places), once per module."""
    with pytest.MonkeyPatch.context() as patch, mock_aws():
        env = {
            "AWS_DEFAULT_REGION": "us-east-1",
            "AWS_ACCESS_KEY_ID": "testing",
            "AWS_SECRET_ACCESS_KEY": "testing",
            "POWERTOOLS_SERVICE_NAME": "places",
            "POWERTOOLS_METRICS_NAMESPACE": "Test",
            "POWERTOOLS_TRACE_DISABLED": "true",
            ZINDEX_ENV: places_on(TABLE).to_json(),
        }
        secret = boto3.client("secretsmanager", region_name="us-east-1").create_secret(
            Name="tokens", SecretString="k" * 64
        )
        env |= PageTokenSettings.environment(secret_arn=secret["ARN"])
        for name, value in env.items():
            patch.setenv(name, value)
        from tatami_functions.common.observability import metrics

        # Powertools reads the namespace when common.observability is imported, which collection did first.
        patch.setattr(metrics, "namespace", "Test")
        reset()
        client = boto3.client("dynamodb")
        create_table(client, places_on(TABLE))
        places = random_places(random.Random(4), 800)
        write_indexed(client, places_on(TABLE), places)
        analyze(IndexRepository(places_on(TABLE), client), segments=1)
        yield {"places": places}
    reset()


Call = Callable[..., tuple[int, dict[str, Any]]]


@pytest.fixture
def call(aws: dict[str, Any]) -> Call:
    """Invoke the API handler: (status, JSON body)."""
    from tatami_functions.places.handler import handler

    def invoke(
        method: str, path: str, body: Any = None, query: dict[str, str] | None = None
    ) -> tuple[int, Any]:
        response = handler(api_event(method, path, body=body, query=query), FakeContext())
        return response["statusCode"], json.loads(response["body"])

    return invoke
