"""The counters' DynamoDB client: `common.clients.aws_client` with a pool for the fanned-out reads."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tatami_functions.common.clients import ClientConfig, aws_client

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.client import DynamoDBClient

# Reads fan out up to 10 BatchGetItem calls at once; keep a pooled connection for each.
_CONFIG = ClientConfig(max_pool_connections=16, retries={"mode": "standard", "max_attempts": 3})


def dynamodb() -> DynamoDBClient:
    """The shared low-level client (thread-safe; the read path calls it from a small pool)."""
    client: DynamoDBClient = aws_client("dynamodb", _CONFIG)
    return client
