"""Increments: `UpdateItem ADD` on a random shard; with an idempotency key, once per key.

Keyed increments go through Powertools Idempotency (its DynamoDB table: partition key `id`, TTL
attribute `expiration`). The key is scoped to the counter and the caller, so two clients that pick
the same key do not collide; the request body (`by`) is validated, so reusing a key for a different
increment is an error rather than a silent replay. A replay returns the first response with
`"replayed": true`.

What stays at-least-once: an UpdateItem whose response is lost after DynamoDB applied it (network
timeout) fails the request, Powertools releases the key, and a retry applies it again. Unkeyed
increments are at-least-once under retries; send an Idempotency-Key when that matters.
"""

from __future__ import annotations

import random
from functools import cache
from typing import TYPE_CHECKING, Any

from aws_lambda_powertools.utilities.idempotency import (
    DynamoDBPersistenceLayer,
    IdempotencyConfig,
    idempotent_function,
)

from tatami_functions.counters import shards_table
from tatami_functions.counters.clients import dynamodb
from tatami_functions.counters.configs import cached_config
from tatami_functions.counters.model import CounterConfig
from tatami_functions.counters.settings import settings

if TYPE_CHECKING:
    from collections.abc import Callable

    from aws_lambda_powertools.utilities.idempotency.persistence.datarecord import DataRecord
    from aws_lambda_powertools.utilities.typing import LambdaContext

# Stable across deployments: Powertools would otherwise prefix keys with the function's name.
KEY_PREFIX = "counters.increment"


def increment(
    name: str,
    by: int,
    idempotency_key: str | None = None,
    caller: str = "",
    context: LambdaContext | None = None,
) -> dict[str, Any]:
    """Add `by` to counter `name`; the response says whether an earlier response was replayed.

    CounterNotFoundError for an unknown counter; with a key, Powertools' IdempotencyValidationError
    when the key was used for a different `by`, IdempotencyAlreadyInProgressError while the first
    request with the key is still running.

    >>> increment("votes-A", 1, idempotency_key="ballot-42")  # doctest: +SKIP
    {'name': 'votes-A', 'by': 1, 'replayed': False}
    """
    config = cached_config(name)  # 404 before any idempotency record is written
    if idempotency_key is None:
        return _apply(config, by)
    if context is not None:
        # Lets Powertools expire an in-progress record when this invocation would have timed out.
        _idempotency_config().register_lambda_context(context)
    request = {"counter": name, "key": idempotency_key, "caller": caller, "by": by}
    return dict(_keyed_apply()(request=request))


def _apply(config: CounterConfig, by: int) -> dict[str, Any]:
    # Uniformly random: the seed's formula assumes writes spread evenly over the shards.
    shards_table.add(config.name, random.randrange(config.shards), by)
    return {"name": config.name, "by": by, "replayed": False}


def _apply_request(*, request: dict[str, Any]) -> dict[str, Any]:
    return _apply(cached_config(request["counter"]), request["by"])


def _mark_replay(response: Any, idempotent_data: DataRecord) -> Any:
    return {**response, "replayed": True}


@cache
def _idempotency_config() -> IdempotencyConfig:
    return IdempotencyConfig(
        event_key_jmespath="[counter, key, caller]",
        payload_validation_jmespath="by",
        raise_on_no_idempotency_key=True,
        expires_after_seconds=settings().idempotency_ttl_seconds,
        hash_function="sha256",
        response_hook=_mark_replay,
    )


@cache
def _keyed_apply() -> Callable[..., dict[str, Any]]:
    # Built on first keyed request: the persistence layer creates no client of its own.
    store = DynamoDBPersistenceLayer(
        table_name=settings().require("idempotency_table"), boto3_client=dynamodb()
    )
    wrapped: Callable[..., dict[str, Any]] = idempotent_function(
        _apply_request,
        data_keyword_argument="request",
        config=_idempotency_config(),
        persistence_store=store,
        key_prefix=KEY_PREFIX,
    )
    return wrapped
