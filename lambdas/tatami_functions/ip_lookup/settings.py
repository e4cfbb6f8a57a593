"""The lookup function's settings (the IpLookupService construct sets them)."""

from __future__ import annotations

from tatami_functions.common.settings import TableSettings, variable

DEFAULT_TTL = 30.0  # seconds a container keeps the alias (service.PointerCache)


class LookupSettings(TableSettings):
    """The ranges table, and how long each container caches its alias."""

    table: str = variable("IP_RANGES_TABLE_NAME")
    alias_ttl_seconds: float = variable("IP_LOOKUP_ALIAS_TTL_SECONDS", float, default=DEFAULT_TTL)
