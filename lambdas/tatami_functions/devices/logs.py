"""Plain functions behind the device-log routes: new logs, time windows, page scopes."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta

from tatami_functions.common.instants import EARLIEST, LATEST, instant
from tatami_functions.devices.models import DEFAULT_RETENTION_DAYS, DeviceLog, LogIn
from tatami_functions.devices.repository import Window

DAY_SECONDS = 86_400


def new_log(
    device_id: str, body: LogIn, shards: int, now: float, retention_days: int = DEFAULT_RETENTION_DAYS
) -> DeviceLog:
    """The log to store for a request at `now` (epoch seconds), on a random shard of `shards`.

    Expiry counts from receipt, not from `created_at`: a device uploading a week of buffered logs
    keeps them for the whole retention.

    >>> log = new_log("12345", LogIn(level="WARNING", message="m", created_at="2020-02-02T00:00:00Z"), 10, 0)
    >>> (log.sort_key, log.expires_at, 0 <= log.shard_id < 10)
    ('WARNING#2020-02-02T00:00:00.000Z', 2592000, True)
    >>> new_log("12345", LogIn(level="INFO", message="m"), 10, 0, retention_days=1).expires_at
    86400
    """
    created = body.created_at or datetime.fromtimestamp(now, UTC)
    return DeviceLog(
        device_id=device_id,
        level=body.level,
        created_at=instant(created),
        message=body.message,
        expires_at=int(now) + (body.retention_days or retention_days) * DAY_SECONDS,
        shard_id=random.randrange(shards),  # any shard will do: the point is spreading writes evenly
        operator=body.operator,
        escalated_to=body.escalated_to,
    )


def window(start: datetime | None, end: datetime | None) -> Window:
    """Inclusive canonical bounds of `from`/`to` (open ends allowed); ValueError if reversed.

    >>> window(datetime(2020, 2, 2, tzinfo=UTC), None)
    ('2020-02-02T00:00:00.000Z', '9999-12-31T23:59:59.999Z')
    """
    low = instant(start) if start else EARLIEST
    high = instant(end) if end else LATEST
    if low > high:
        raise ValueError(f"from {low} is after to {high}")
    return low, high


def since(hours: int, now: float) -> str:
    """The start of the last `hours` hours before `now`.

    >>> since(4, 4 * 3600)
    '1970-01-01T00:00:00.000Z'
    """
    return instant(datetime.fromtimestamp(now, UTC) - timedelta(hours=hours))


def scope(route: str, *values: object) -> str:
    """The scope a page token is bound to: the route and every value that shapes its results.

    >>> scope("devices.logs", "12345", None)
    '["devices.logs", "12345", null]'
    """
    return json.dumps([route, *values], ensure_ascii=False)
