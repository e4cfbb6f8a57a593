"""The AWS clients of an execution environment: one per service and configuration, created on first
use and reused while the environment is warm (boto3 clients are thread-safe).

Module-level clients of every function come from `aws_client`. The configurations (pool size,
retries, timeouts) are named here, one per kind of caller, so a difference between two functions'
clients is a named, explained choice: `API_CALLS` (an API function's time budget:
`common.dependencies` explains it), `SEARCH_CALLS` (the same, with a connection for each of a Z-index
search's parallel Queries), `STREAM_CALLS` (a stream consumer has minutes, not seconds) and
`EXPORT_CALLS` (the export function's S3, Glue and DynamoDB control-plane calls).

Repositories keep their own lazily created, injectable client (`common.repository`); both kinds
are made by `new_client`, which puts `common.writes.guard` on them (the SDK never resends a write
whose answer was lost unless the write is safe to apply twice) and keeps them to the invocation's
deadline, which an API function's resolver sets (`answer_by`, `within_deadline`): no attempt starts
that could end after it. Tests that change the environment call `aws_client.cache_clear()`.

boto3 and botocore's Config are imported when the first client is made, not at import: they are
about 150 ms of CPU at a cold start (bench/cold_start.py), which a function pays only once it calls
AWS (a request refused with a 400, or the OpenAPI document, never does).
"""

from __future__ import annotations

import time
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any

from tatami_functions.common.observability import trace_aws_calls

if TYPE_CHECKING:
    from botocore.config import Config

__all__ = [
    "API_CALLS",
    "DEFAULT",
    "EXPORT_CALLS",
    "SEARCH_CALLS",
    "STREAM_CALLS",
    "ClientConfig",
    "answer_by",
    "aws_client",
    "new_client",
    "no_time_left_error",
    "within_deadline",
]


class ClientConfig:
    """The options of a botocore `Config`, made into one on first use (botocore.config imports most
    of botocore).

    >>> ClientConfig(max_pool_connections=7).config.max_pool_connections
    7
    """

    def __init__(self, **options: Any) -> None:
        self.options = options

    def with_options(self, **options: Any) -> ClientConfig:
        """These options with `options` changed or added (as botocore's `Config.merge`).

        >>> ClientConfig(read_timeout=2).with_options(max_pool_connections=64).options
        {'read_timeout': 2, 'max_pool_connections': 64}
        """
        return ClientConfig(**(self.options | options))

    @cached_property
    def config(self) -> Config:
        from botocore.config import Config  # here, not at init: see the module docstring

        return Config(**self.options)


DEFAULT = ClientConfig()  # boto3's own defaults
API_CALLS = ClientConfig(
    connect_timeout=1,
    read_timeout=2,
    # botocore's `max_attempts` counts retries only; `total_max_attempts` the first attempt too.
    retries={"mode": "standard", "total_max_attempts": 3},
    max_pool_connections=32,  # a merge of shard Queries, a batch route's threads: a connection each
)
SEARCH_CALLS = API_CALLS.with_options(max_pool_connections=64)
# Standard retries absorb throttling before the consumer's own retry of the batch.
STREAM_CALLS = ClientConfig(
    connect_timeout=3,
    read_timeout=10,
    retries={"mode": "standard", "max_attempts": 3},
    max_pool_connections=16,  # the replicator writes with 8 threads
)
EXPORT_CALLS = ClientConfig(max_pool_connections=32, retries={"mode": "standard", "max_attempts": 5})


@cache
def aws_client(service: str, config: ClientConfig = DEFAULT) -> Any:
    """The one client of `service` with `config` in this execution environment.

    >>> aws_client("s3", ClientConfig(region_name="eu-west-1")).meta.region_name
    'eu-west-1'
    """
    return new_client(service, config)


def new_client(service: str, config: ClientConfig | None = DEFAULT) -> Any:
    """A new client of `service` with `config` (None: boto3's defaults), its writes' retries guarded."""
    import boto3  # here, not at init: see the module docstring

    from tatami_functions.common.writes import guard

    trace_aws_calls()
    client = boto3.client(service, config=config.config if config else None)
    guard(client.meta.events, client.meta.service_model.service_id.hyphenize())
    return within_deadline(client)


# The invocation's deadline. A budget is per call, but an invocation may have spent part of its time
# before the call (a cold environment importing boto3 on a loaded machine): an attempt that could
# not end before the deadline is not made, so the caller hears a 503 in time rather than a timeout.
_deadline = {"epoch": float("inf")}
ANSWER_MARGIN_SECONDS = 0.5  # kept for the answer itself after the last attempt gives up


@cache
def no_time_left_error() -> type[Exception]:
    """The error of an attempt not made for want of time: a botocore error (so it is translated like
    any SDK error), but no connection error (so the SDK does not retry it). Made on first use, as
    botocore is imported (the module docstring says why)."""
    from botocore.exceptions import BotoCoreError

    class NoTimeLeftError(BotoCoreError):  # type: ignore[misc]  # botocore ships no types
        fmt = "no time left for another attempt before the invocation's deadline"

    return NoTimeLeftError


def answer_by(remaining_ms: int | None) -> None:
    """Set the deadline of this invocation (its context's `get_remaining_time_in_millis()`; None
    once it has answered: no deadline)."""
    _deadline["epoch"] = float("inf") if remaining_ms is None else time.time() + remaining_ms / 1000


def within_deadline[ClientT](client: ClientT) -> ClientT:
    """`client`, refusing to start an attempt that may outlast the invocation (`no_time_left_error`).

    >>> import boto3
    >>> sqs = boto3.client("sqs", region_name="us-east-1", aws_access_key_id="k", aws_secret_access_key="s")
    >>> answer_by(1000)  # 1 s left: an attempt may take 60 s (boto3's default read timeout)
    >>> within_deadline(sqs).list_queues()
    Traceback (most recent call last):
    ...
    tatami_functions.common.clients...NoTimeLeftError: no time left for another attempt ...
    >>> answer_by(None)
    """
    config = client.meta.config  # type: ignore[attr-defined]
    attempt = max(config.connect_timeout, config.read_timeout) + ANSWER_MARGIN_SECONDS

    def stop_when_out_of_time(**_: Any) -> None:
        if time.time() + attempt > _deadline["epoch"]:
            raise no_time_left_error()()

    client.meta.events.register("before-send", stop_when_out_of_time)  # type: ignore[attr-defined]
    return client
