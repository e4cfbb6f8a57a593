"""The AWS clients of an execution environment: one per service and configuration, created on first
use and reused while the environment is warm (boto3 clients are thread-safe).

Module-level clients of every function come from `aws_client`; a service names only its
configuration (pool size, retries, timeouts). Repositories keep their own lazily created,
injectable client (`common.repository`). Tests that change the environment call
`aws_client.cache_clear()`.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import boto3
from botocore.config import Config

__all__ = ["DEFAULT", "aws_client"]

DEFAULT = Config()  # boto3's own defaults


@cache
def aws_client(service: str, config: Config = DEFAULT) -> Any:
    """The one client of `service` with `config` in this execution environment.

    >>> aws_client("s3", Config(region_name="eu-west-1")).meta.region_name
    'eu-west-1'
    """
    return boto3.client(service, config=config)
