"""The function's settings, read once from the environment its construct sets (sharded_counter.py)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache

SHARDS_TABLE_ENV = "COUNTER_SHARDS_TABLE"
COUNTERS_TABLE_ENV = "COUNTERS_TABLE"
IDEMPOTENCY_TABLE_ENV = "COUNTER_IDEMPOTENCY_TABLE"
DEFAULT_TARGET_WCU_ENV = "COUNTER_DEFAULT_TARGET_WCU"
SAFETY_FACTOR_ENV = "COUNTER_SAFETY_FACTOR"
CONFIG_CACHE_ENV = "COUNTER_CONFIG_CACHE_SECONDS"
IDEMPOTENCY_TTL_ENV = "COUNTER_IDEMPOTENCY_TTL_SECONDS"


@dataclass(frozen=True, slots=True)
class Settings:
    """Table names are empty when a function has no access to that table (least privilege)."""

    shards_table: str
    counters_table: str
    idempotency_table: str
    default_target_wcu: int = 1000
    safety_factor: float = 1.5
    config_cache_seconds: float = 60.0
    idempotency_ttl_seconds: int = 24 * 3600


@cache
def settings() -> Settings:
    """This execution environment's settings (tests call `settings.cache_clear()` after changing env).

    >>> settings().safety_factor >= 1  # doctest: +SKIP
    True
    """
    env = os.environ
    return Settings(
        shards_table=env.get(SHARDS_TABLE_ENV, ""),
        counters_table=env.get(COUNTERS_TABLE_ENV, ""),
        idempotency_table=env.get(IDEMPOTENCY_TABLE_ENV, ""),
        default_target_wcu=int(env.get(DEFAULT_TARGET_WCU_ENV, "1000")),
        safety_factor=float(env.get(SAFETY_FACTOR_ENV, "1.5")),
        config_cache_seconds=float(env.get(CONFIG_CACHE_ENV, "60")),
        idempotency_ttl_seconds=int(env.get(IDEMPOTENCY_TTL_ENV, str(24 * 3600))),
    )


def required(table: str, env_name: str) -> str:
    """`table`, or a clear error when the function was deployed without it."""
    if not table:
        raise RuntimeError(f"{env_name} is not set: this function has no access to that table")
    return table
