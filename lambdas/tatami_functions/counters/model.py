"""Values of the counters service: a counter's configuration, one shard's roll-up state, a reading."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any


@dataclass(frozen=True, slots=True)
class CounterConfig:
    """What is stored with a counter: its shard count and the target it was sized for."""

    name: str
    shards: int
    target_wcu: int
    safety_factor: float

    def __post_init__(self) -> None:
        if self.shards < 1:
            raise ValueError(f"shards {self.shards} must be at least 1 for counter {self.name!r}")

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "shards": self.shards,
            "target_wcu": self.target_wcu,
            "safety_factor": self.safety_factor,
        }


@dataclass(frozen=True, slots=True)
class ShardState:
    """A shard as the roll-up last saw it: its write version, its count, the record's time (epoch s)."""

    version: int
    count: int
    at: int


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


@dataclass(frozen=True, slots=True)
class IncrementRecord:
    """That a keyed increment happened: its key's hash, the answer it got, its `by`'s hash, its expiry.

    The layout is Powertools Idempotency's (`id`, `status`, `data`, `validation`, `expiration`), the
    table's since the start, so records written before increments became one transaction still
    replay. `status` is "COMPLETED" for every record written now; "INPROGRESS" is only ever a legacy
    record of a request that died half-way.
    """

    id: str
    response: dict[str, Any]
    validation: str
    expiration: int  # epoch seconds: the table's TTL attribute, and the end of the key's 24 hours
    status: str = "COMPLETED"
