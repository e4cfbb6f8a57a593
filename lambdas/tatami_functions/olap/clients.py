"""The export function's clients: `common.clients.aws_client` with more retries and a bigger pool."""

from __future__ import annotations

from typing import Any

from tatami_functions.common.clients import EXPORT_CALLS, aws_client


def client(service: str) -> Any:
    """The one client of `service` in this execution environment (thread-safe, as boto3 clients are)."""
    return aws_client(service, EXPORT_CALLS)
