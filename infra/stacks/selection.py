"""Which services a stack deploys: CDK context `services` (`npx cdk deploy -c services=places,counters`).

Absent, empty or `all`: every service. Otherwise a comma-separated string (the CLI's `-c`) or a list
(cdk.json) of service names, the packages' names under `tatami_functions` (`places`, `ip_lookup`, ...).
The API, its OpenAPI document (the docs service) and the monitoring come with any selection.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

__all__ = ["CONTEXT_KEY", "ServiceSelection"]

CONTEXT_KEY = "services"
ALL = "all"


@dataclass(frozen=True, slots=True)
class ServiceSelection:
    """The names chosen (None: all of them).

    >>> ServiceSelection.from_context("places, counters").names
    frozenset({'counters', 'places'})
    >>> ServiceSelection.from_context(None).includes("forum")
    True
    """

    names: frozenset[str] | None = None

    @classmethod
    def from_context(cls, value: str | Iterable[str] | None) -> ServiceSelection:
        names = value.split(",") if isinstance(value, str) else list(value or [])
        chosen = frozenset(name.strip() for name in names if name.strip())
        return cls(None if not chosen or chosen == {ALL} else chosen)

    def includes(self, service: str) -> bool:
        return self.names is None or service in self.names

    def check(self, known: Collection[str]) -> None:
        """Refuse a name no service has, saying which exist (a typo must not deploy nothing)."""
        unknown = sorted((self.names or frozenset()) - set(known))
        if unknown:
            raise ValueError(
                f"context {CONTEXT_KEY}: no service named {', '.join(unknown)}; "
                f"choose among {', '.join(sorted(known))} (comma-separated), or {ALL}"
            )
