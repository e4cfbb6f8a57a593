"""Creating and growing counters, and the write path's cached view of their configuration.

A counter exists once `PUT /counters/{name}` stored its configuration; its shard count comes from
the seed's formula for the requested target WCU. The count only grows: every shard holds part of
the value, and reads sum shards 0..n-1 of the stored count, so growing loses nothing.

Increments read the configuration through a short per-environment cache (hot counters would
otherwise read one config item as often as they write). A stale, smaller shard count is harmless
there: writes spread over fewer shards for at most the cache's lifetime. Reads never use the cache.
"""

from __future__ import annotations

import time
from typing import Literal

from tatami_functions.common.dependencies import THROTTLED_RETRY_AFTER
from tatami_functions.counters.counters_table import CountersTable
from tatami_functions.counters.exceptions import (
    CounterNotFoundError,
    CounterUnavailableError,
    ShardShrinkError,
    TooManyShardsError,
)
from tatami_functions.counters.model import CounterConfig
from tatami_functions.counters.settings import settings
from tatami_functions.counters.sharding import MAX_SHARDS, shards_needed

ConfigChange = Literal["created", "grown", "unchanged"]
_CACHE_LIMIT = 10_000  # names per environment; past it the cache starts over
_cache: dict[str, tuple[float, CounterConfig]] = {}


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

    >>> create_or_grow(plan("votes-A", 100_000))  # doctest: +SKIP
    (CounterConfig(name='votes-A', shards=150, ...), 'created')
    """
    table = CountersTable.from_environment()
    for _ in range(3):  # a concurrent PUT may change the count between our read and write
        existing = table.create_config(wanted)
        if existing is None:
            return wanted, "created"
        if keep_existing:
            return existing, "unchanged"
        if wanted.shards < existing.shards:
            raise ShardShrinkError(wanted.name, existing.shards, wanted.shards)
        if wanted.shards == existing.shards:
            return existing, "unchanged"
        if table.grow_config(wanted, existing.shards):
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
    config = CountersTable.from_environment().get_config(name)
    if config is None:
        raise CounterNotFoundError(name)
    if len(_cache) >= _CACHE_LIMIT:
        _cache.clear()
    _cache[name] = (now, config)
    return config
