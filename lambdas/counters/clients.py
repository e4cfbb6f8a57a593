"""The one DynamoDB client of an execution environment: created on first use, reused while warm."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

import boto3
from botocore.config import Config

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.client import DynamoDBClient

# Reads fan out up to 10 BatchGetItem calls at once; keep a pooled connection for each.
_CONFIG = Config(max_pool_connections=16, retries={"mode": "standard", "max_attempts": 3})


@cache
def dynamodb() -> DynamoDBClient:
    """The shared low-level client (thread-safe; the read path calls it from a small pool)."""
    client: DynamoDBClient = boto3.client("dynamodb", config=_CONFIG)
    return client
