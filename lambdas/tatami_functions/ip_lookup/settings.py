"""The lookup function's settings (the IpLookup construct sets them)."""

from __future__ import annotations

from tatami_functions.common.settings import TableSettings, variable

DEFAULT_TTL = 30.0  # seconds a container keeps the alias (lookup.PointerCache)


class LookupSettings(TableSettings):
    """The ranges table, and how long each container caches its alias."""

    table: str = variable("IP_RANGES_TABLE")
    alias_ttl_seconds: float = variable("IP_ALIAS_TTL_SECONDS", float, default=DEFAULT_TTL)
