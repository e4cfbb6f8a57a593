"""The counters' logic: creating and growing counters, adding to them, reading them, rolling them up.

A counter exists once `PUT /counters/{name}` stored its configuration; its shard count comes from
the seed's formula for the requested target WCU (`sharding`). The count only grows: every shard
holds part of the value, and reads sum shards 0..n-1 of the stored count, so growing loses nothing.

Increments read the configuration through a short per-environment cache (hot counters would
otherwise read one config item as often as they write). A stale, smaller shard count is harmless
there: writes spread over fewer shards for at most the cache's lifetime. Reads never use the cache.

An unkeyed increment is one `UpdateItem ADD` on a random shard (1 WCU): the hot path of a counter
sized for 100,000 WCU pays nothing for deduplication it did not ask for. It is applied at most once
per request: the SDK never resends an `ADD` whose answer was lost (`common.writes`), so a 200 counted
it once and a 503 says whether it may have counted (a client's resend is then its own choice).
A keyed increment is one transaction (`CountersRepository.commit_increment`):
the shard's `ADD` and the key's record (`idempotency`) commit together or not at all, so exactly-once
holds whatever instant the function dies at. A retry within 24 hours answers as the first request
did, with `"replayed": true`. Two requests with one key at the same instant: one commits, the other
replays it (or, while it is still committing, gets a 409).

Reading: `source="shards"` reads the configuration, then every shard (`consistent=True`: strongly
consistent reads, twice the RCU). `source="rollup"` reads one partition (config + roll-up item):
cheap for hot counters, but only as fresh as the stream; its `as_of` is the approximate time of the
newest stream record applied to it.

The roll-up (`roll_up`) applies a batch of the shards' stream to the roll-up items (`rollup` says
how). Failures are reported in the stream consumers' one shape (`common.stream_batches`): records of
a counter whose write failed, and malformed records, are batch item failures; Lambda retries from
the first of them.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
from aws_lambda_powertools.utilities.typing import LambdaContext

from tatami_functions.common import writes
from tatami_functions.common.dependencies import THROTTLED_RETRY_AFTER
from tatami_functions.common.metric_names import ROLLUP_LAG
from tatami_functions.common.observability import logger, metrics
from tatami_functions.common.stream_batches import partial_response
from tatami_functions.counters.exceptions import (
    CounterNotFoundError,
    CounterUnavailableError,
    IncrementConflictError,
    KeyInProgressError,
    KeyReusedError,
    RecordNotAppliedError,
    RollupWriteError,
    ShardShrinkError,
    TooManyShardsError,
)
from tatami_functions.counters.idempotency import IncrementRecord, new_record
from tatami_functions.counters.repository import repository
from tatami_functions.counters.rollup import ShardState, Update, newest_states, shard_update
from tatami_functions.counters.settings import settings
from tatami_functions.counters.sharding import MAX_SHARDS, CounterConfig, random_shard, shards_needed

ConfigChange = Literal["created", "grown", "unchanged"]
_CACHE_LIMIT = 10_000  # names per environment; past it the cache starts over
_cache: dict[str, tuple[float, CounterConfig]] = {}
_CONFLICT_ATTEMPTS = 4  # a transaction that met another one on its shard or key is tried again
UNKEYED_RESEND = (
    "it may have applied: sending it again may count it twice; "
    "send an Idempotency-Key to make sending it again safe"
)


# Creating and growing counters.


def plan(name: str, target_wcu: int | None = None, safety_factor: float | None = None) -> CounterConfig:
    """The configuration a PUT asks for; omitted values come from the construct's defaults.

    >>> plan("votes-A", 100_000, 1.5).shards
    150
    """
    target = target_wcu if target_wcu is not None else settings().default_target_wcu
    safety = safety_factor if safety_factor is not None else settings().safety_factor
    shards = shards_needed(target, item_kb=1, safety_factor=safety)  # a shard item is < 1 KB
    if shards > MAX_SHARDS:
        raise TooManyShardsError(shards, MAX_SHARDS)
    return CounterConfig(name, shards, target, safety)


def create_or_grow(wanted: CounterConfig, keep_existing: bool = False) -> tuple[CounterConfig, ConfigChange]:
    """Store `wanted`, or raise an existing counter's shard count to it; never shrink.

    `keep_existing`: the caller asked for no particular size (a PUT without a body), so an existing
    counter is returned as it is instead of being compared with the defaults.

    For example (not run as a doctest)::

        create_or_grow(plan("votes-A", 100_000))
        # -> (CounterConfig(name='votes-A', shards=150, ...), 'created')
    """
    counters = repository()
    for _ in range(3):  # a concurrent PUT may change the count between our read and write
        existing = counters.create_config(wanted)
        if existing is None:
            return wanted, "created"
        if keep_existing:
            return existing, "unchanged"
        if wanted.shards < existing.shards:
            raise ShardShrinkError(wanted.name, existing.shards, wanted.shards)
        if wanted.shards == existing.shards:
            return existing, "unchanged"
        if counters.grow_config(wanted, existing.shards):
            _cache.pop(wanted.name, None)
            return wanted, "grown"
    raise CounterUnavailableError(
        f"counter {wanted.name!r} kept changing under concurrent PUTs", retry_after=THROTTLED_RETRY_AFTER
    )


def cached_config(name: str) -> CounterConfig:
    """The configuration of `name` for writing, at most `config_cache_seconds` old.

    CounterNotFoundError when there is no such counter (never cached: a PUT takes effect at once).
    """
    now = time.monotonic()
    hit = _cache.get(name)
    if hit and now - hit[0] < settings().config_cache_seconds:
        return hit[1]
    config = repository().get_config(name)
    if config is None:
        raise CounterNotFoundError(name)
    if len(_cache) >= _CACHE_LIMIT:
        _cache.clear()
    _cache[name] = (now, config)
    return config


# Increments.


def increment(name: str, by: int, idempotency_key: str | None = None, caller: str = "") -> dict[str, Any]:
    """Add `by` to counter `name`; the answer says whether it replays an earlier one.

    CounterNotFoundError for an unknown counter; with a key, KeyReusedError when the key was used for
    a different `by`, KeyInProgressError while another request with the key is committing.

    For example (not run as a doctest)::

        increment("votes-A", 1, idempotency_key="ballot-42")
        # -> {'name': 'votes-A', 'by': 1, 'replayed': False}
    """
    config = cached_config(name)  # 404 before anything is written
    answer = {"name": name, "by": by, "replayed": False}
    if idempotency_key is None:
        writes.resending_is_unsafe(UNKEYED_RESEND)  # one ADD, never resent: at most once
        repository().add_to_shard(name, random_shard(config), by)
        return answer
    record = new_record(name, idempotency_key, caller, by, answer)
    stored = _commit(config, by, record)
    return answer if stored is None else _replay(stored, record)


def _commit(config: CounterConfig, by: int, record: IncrementRecord) -> IncrementRecord | None:
    counters = repository()
    conflict = IncrementConflictError(on_key=False)
    for attempt in range(_CONFLICT_ATTEMPTS):
        # A new shard each try: a shard another transaction holds is busy for a few milliseconds.
        try:
            return counters.commit_increment(config.name, random_shard(config), by, record, time.time())
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


# Reading.


@dataclass(frozen=True, slots=True)
class Reading:
    """A counter's value, where it came from and, for the roll-up, how fresh it is."""

    name: str
    value: int
    source: str  # "shards" (exact) or "rollup" (maintained from the stream, may lag)
    shards: int
    consistent: bool
    as_of: int | None = None  # roll-up only: newest applied stream record's approximate time

    def to_json(self) -> dict[str, Any]:
        """The response body.

        >>> Reading("votes-A", 3, "rollup", 2, False, 0).to_json()["as_of"]
        '1970-01-01T00:00:00Z'
        """
        body: dict[str, Any] = {
            "name": self.name,
            "value": self.value,
            "source": self.source,
            "shards": self.shards,
            "consistent": self.consistent,
        }
        if self.source == "rollup":
            body["as_of"] = (
                None
                if self.as_of is None
                else datetime.fromtimestamp(self.as_of, UTC).isoformat().replace("+00:00", "Z")
            )
        return body


def read_counter(name: str, source: str = "shards", consistent: bool = False) -> Reading:
    """The value of counter `name`; CounterNotFoundError when it does not exist.

    For example (not run as a doctest)::

        read_counter("votes-A").to_json()
        # -> {'name': 'votes-A', 'value': 42, 'source': 'shards', 'shards': 150, 'consistent': False}
    """
    if source == "rollup":
        return _from_rollup(name, consistent)
    config = repository().get_config(name, consistent)
    if config is None:
        raise CounterNotFoundError(name)
    value = repository().sum_shards(name, config.shards, consistent)
    return Reading(name, value, "shards", config.shards, consistent)


def _from_rollup(name: str, consistent: bool) -> Reading:
    config, entries = repository().read_rollup(name, consistent)
    if config is None:
        raise CounterNotFoundError(name)
    value = sum(entry.count for entry in entries.values())
    as_of = max((entry.at for entry in entries.values()), default=None)
    return Reading(name, value, "rollup", config.shards, consistent, as_of)


# The roll-up.


def roll_up(event: dict[str, Any], context: LambdaContext | None = None) -> PartialItemFailureResponse:
    """Apply a batch of the shards' stream to the roll-up items; the partial-batch response names what
    must be retried."""
    failed: dict[str, str] = {}  # sequence number -> why
    updates: dict[str, Update] = {}
    for record in event["Records"]:
        sequence = record["dynamodb"]["SequenceNumber"]
        try:
            update = shard_update(record)
        except ValueError as exc:
            logger.warning("malformed shard record", extra={"sequence_number": sequence, "error": str(exc)})
            failed[sequence] = str(exc)
            continue
        if update is not None:
            updates[sequence] = update
    failed_counters = _save(newest_states(updates.values()))
    failed |= {seq: failed_counters[u[0]] for seq, u in updates.items() if u[0] in failed_counters}
    _record_lag(updates.values())
    return partial_response(event, context, failed, RecordNotAppliedError)


def _save(states: dict[str, dict[int, ShardState]]) -> dict[str, str]:
    """Write each counter's roll-up; the counters whose write failed, with the reason."""
    failures = {}
    for name, shards in states.items():
        try:
            repository().save_rollup(name, shards)
        except RollupWriteError as exc:
            logger.warning(
                "roll-up write failed; its records will be retried",
                extra={"counter": name, "error": str(exc)},
            )
            failures[name] = str(exc)
    return failures


def _record_lag(updates: Iterable[Update]) -> None:
    oldest = min((state.at for _, _, state in updates), default=None)
    if oldest is not None:
        metrics.add_metric(name=ROLLUP_LAG, unit=MetricUnit.Seconds, value=time.time() - oldest)
