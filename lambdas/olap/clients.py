"""boto3 clients of the export function: created on first use, reused across warm invocations."""

from __future__ import annotations

from functools import cache
from typing import Any

import boto3
from botocore.config import Config

_CONFIG = Config(max_pool_connections=32, retries={"mode": "standard", "max_attempts": 5})


@cache
def client(service: str) -> Any:
    """The one client of `service` in this execution environment (thread-safe, as boto3 clients are)."""
    return boto3.client(service, config=_CONFIG)
