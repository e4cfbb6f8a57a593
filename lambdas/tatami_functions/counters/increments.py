"""Increments: `UpdateItem ADD` on a random shard; with an Idempotency-Key, once per key, crash or not.

An unkeyed increment is one `ADD` (1 WCU): the hot path of a counter sized for 100,000 WCU pays
nothing for deduplication it did not ask for, and stays at-least-once under a client's retries.

A keyed increment is one transaction (`IdempotencyTable.commit`): the shard's `ADD` and the key's
record commit together or not at all, so exactly-once holds whatever instant the function dies at.
The key is scoped to the counter and the caller (two clients picking the same key do not collide)
and bound to `by` (a key reused for another increment is refused, not replayed). A retry within 24
hours answers as the first request did, with `"replayed": true`. Two requests with one key at the
same instant: one commits, the other replays it (or, while it is still committing, gets a 409).
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from typing import Any

from tatami_functions.common.dependencies import THROTTLED_RETRY_AFTER
from tatami_functions.counters.configs import cached_config
from tatami_functions.counters.exceptions import (
    CounterUnavailableError,
    IncrementConflictError,
    KeyInProgressError,
    KeyReusedError,
)
from tatami_functions.counters.idempotency_table import IdempotencyTable
from tatami_functions.counters.model import CounterConfig, IncrementRecord
from tatami_functions.counters.settings import settings
from tatami_functions.counters.shards_table import ShardsTable, shard_update

# The records' key prefix, as Powertools Idempotency wrote it (records from before still replay).
KEY_PREFIX = "counters.increment"
_CONFLICT_ATTEMPTS = 4  # a transaction that met another one on its shard or key is tried again


def increment(name: str, by: int, idempotency_key: str | None = None, caller: str = "") -> dict[str, Any]:
    """Add `by` to counter `name`; the answer says whether it replays an earlier one.

    CounterNotFoundError for an unknown counter; with a key, KeyReusedError when the key was used for
    a different `by`, KeyInProgressError while another request with the key is committing.

    >>> increment("votes-A", 1, idempotency_key="ballot-42")  # doctest: +SKIP
    {'name': 'votes-A', 'by': 1, 'replayed': False}
    """
    config = cached_config(name)  # 404 before anything is written
    answer = {"name": name, "by": by, "replayed": False}
    if idempotency_key is None:
        ShardsTable.from_environment().add_to_shard(name, _random_shard(config), by)
        return answer
    record = new_record(name, idempotency_key, caller, by, answer)
    stored = _commit(config, by, record)
    return answer if stored is None else _replay(stored, record)


def new_record(name: str, key: str, caller: str, by: int, answer: dict[str, Any]) -> IncrementRecord:
    """The record of a keyed increment, with Powertools Idempotency's hashes of its key and its `by`.

    >>> new_record("votes-A", "k", "", 1, {}).id[:27]
    'counters.increment#45e243b8'
    """
    expiration = int(time.time()) + settings().idempotency_ttl_seconds
    return IncrementRecord(f"{KEY_PREFIX}#{_hash([name, key, caller])}", answer, _hash(by), expiration)


def _hash(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()


def _random_shard(config: CounterConfig) -> int:
    # Uniformly random: the seed's formula assumes writes spread evenly over the shards.
    return random.randrange(config.shards)


def _commit(config: CounterConfig, by: int, record: IncrementRecord) -> IncrementRecord | None:
    records, shards = IdempotencyTable.from_environment(), ShardsTable.from_environment()
    conflict = IncrementConflictError(on_key=False)
    for attempt in range(_CONFLICT_ATTEMPTS):
        # A new shard each try: a shard another transaction holds is busy for a few milliseconds.
        update = shard_update(shards.table_name, config.name, _random_shard(config), by)
        try:
            return records.commit(update, record, time.time())
        except IncrementConflictError as met:
            conflict = met
            time.sleep(0.02 * 2**attempt + random.uniform(0, 0.02))
    if conflict.on_key:
        raise KeyInProgressError() from conflict
    raise CounterUnavailableError(
        "cannot add to the counter: its shards stayed busy", retry_after=THROTTLED_RETRY_AFTER
    ) from conflict


def _replay(stored: IncrementRecord, record: IncrementRecord) -> dict[str, Any]:
    if stored.status != "COMPLETED":  # a legacy in-progress record, not yet expired
        raise KeyInProgressError()
    if stored.validation != record.validation:
        raise KeyReusedError()
    return {**stored.response, "replayed": True}
