"""Device logs as the routes take and show them: levels, the stored log and its keys, the request bodies.

The sort key is the seed's composite `level_with_created_at`, e.g. "WARNING#2020-02-02T00:00:00.000Z":
`begins_with` on "WARNING#" answers "this device's WARNING logs, newest first" from the key alone,
where the seed's first design filtered on `level` and paid for every log it threw away. Keys compare
as text, so every timestamp is stored in one canonical form (`common.instants`): UTC, milliseconds,
`Z`, a four-digit year.
"""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from tatami_functions.common.instants import AwareInstant
from tatami_functions.common.text import KEY_PART, stripped

# Devices buffer logs while offline, so old timestamps are fine; the future is not (a clock gone
# wrong would pin its logs on top of every "recent" page), beyond a little clock skew.
MAX_CLOCK_SKEW = timedelta(minutes=5)
DEFAULT_RETENTION_DAYS = 30

Name = Annotated[str, stripped(64, KEY_PART)]


class Level(enum.StrEnum):
    """Log levels; the key's prefix, so a level must never be a prefix of another plus '#'."""

    DEBUG = "DEBUG"
    INFO = "INFO"
    WARNING = "WARNING"
    ERROR = "ERROR"
    CRITICAL = "CRITICAL"


def sort_key(level: Level | str, created_at: str) -> str:
    """The composite sort key of a log.

    >>> sort_key(Level.WARNING, "2020-02-02T00:00:00.000Z")
    'WARNING#2020-02-02T00:00:00.000Z'
    """
    return f"{Level(level).value}#{created_at}"


class LogIn(BaseModel):
    """Body of `POST /devices/{id}/logs`; `created_at` defaults to now, `retention_days` to the setting."""

    model_config = ConfigDict(extra="forbid")

    level: Level
    message: Annotated[str, Field(min_length=1, max_length=4096)]
    created_at: AwareInstant | None = None
    operator: Name | None = None
    escalated_to: Name | None = None
    retention_days: Annotated[int, Field(ge=1, le=3650)] | None = None  # None: the deployment's default

    @field_validator("created_at")
    @classmethod
    def _not_in_the_future(cls, value: datetime | None) -> datetime | None:
        if value is not None and value > datetime.now(UTC) + MAX_CLOCK_SKEW:
            raise ValueError("is in the future (more than 5 minutes ahead of the server clock)")
        return value


class AssignmentIn(BaseModel):
    """Body of `PATCH /devices/{id}/logs/{level}/{created_at}`: a null removes the attribute.

    Removing `escalated_to` takes the log out of the sparse escalation index.
    """

    model_config = ConfigDict(extra="forbid", json_schema_extra={"minProperties": 1})

    operator: Name | None = None
    escalated_to: Name | None = None


@dataclass(frozen=True, slots=True)
class DeviceLog:
    """One stored log; `shard_id` spreads logs over the random-shard GSI."""

    device_id: str
    level: Level
    created_at: str
    message: str
    expires_at: int
    shard_id: int
    operator: str | None = None
    escalated_to: str | None = None

    @property
    def sort_key(self) -> str:
        return sort_key(self.level, self.created_at)

    def to_json(self) -> dict[str, Any]:
        """The API's view: no shard (an implementation detail), no empty attributes."""
        data = asdict(self)
        data.pop("shard_id")
        data["level"] = self.level.value
        return {key: value for key, value in data.items() if value is not None}
