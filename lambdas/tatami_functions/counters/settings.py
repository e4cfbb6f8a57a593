"""The counters functions' settings, read once from the environment the construct sets."""

from __future__ import annotations

from functools import cache

from tatami_functions.common.settings import Settings, variable


class CountersSettings(Settings):
    """A table is None when the function has no access to it (least privilege): `require` names it."""

    shards_table: str | None = variable("COUNTER_SHARDS_TABLE_NAME", default=None)
    counters_table: str | None = variable("COUNTERS_TABLE_NAME", default=None)
    idempotency_table: str | None = variable("COUNTER_IDEMPOTENCY_TABLE_NAME", default=None)
    default_target_wcu: int = variable("COUNTERS_DEFAULT_TARGET_WCU", int, default=1000)
    safety_factor: float = variable("COUNTERS_SAFETY_FACTOR", float, default=1.5)
    config_cache_seconds: float = variable("COUNTERS_CONFIG_CACHE_SECONDS", float, default=60.0)
    idempotency_ttl_seconds: int = variable("COUNTERS_IDEMPOTENCY_TTL_SECONDS", int, default=24 * 3600)


@cache
def settings() -> CountersSettings:
    """This execution environment's settings (tests call `settings.cache_clear()` after changing env).

    For example (not run as a doctest)::

        settings().safety_factor >= 1
        # -> True
    """
    return CountersSettings.from_env()
