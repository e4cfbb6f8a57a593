"""The device logs (seed 004): record a log, assign or escalate it, the four read paths, and the TTL
archive of the logs DynamoDB deleted for age.

Each function takes the repository to use, the function's own (`repository()`) when not given. A
list answers one page: `{"items", "next", "stats"}` (`common.paging`), its token bound to the query.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
from aws_lambda_powertools.utilities.typing import LambdaContext

from tatami_functions.common.instants import EARLIEST, LATEST, instant
from tatami_functions.common.observability import logger
from tatami_functions.common.paging import ListPage, cursor_from, scope
from tatami_functions.common.stream_batches import partial_response
from tatami_functions.devices import repository as storage
from tatami_functions.devices.archive import ArchivedBatch, archive_object, expired_logs, object_key
from tatami_functions.devices.exceptions import DeviceLogsUnavailableError
from tatami_functions.devices.repository import ArchiveRepository, DeviceLogsRepository, Reads, Window
from tatami_functions.devices.schemas import DEFAULT_RETENTION_DAYS, DeviceLog, Level, LogIn
from tatami_functions.devices.settings import DeviceLogsSettings

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


def _table(repository: DeviceLogsRepository | None) -> DeviceLogsRepository:
    return repository or storage.repository()


def record_log(device_id: str, body: LogIn, repository: DeviceLogsRepository | None = None) -> DeviceLog:
    """Store a new log (retention: the body's, else the deployment's); a retry of the same log
    succeeds, a different one at the same created_at is a LogConflictError (409)."""
    table = _table(repository)
    retention = DeviceLogsSettings.from_env().retention_days
    log = new_log(device_id, body, table.shards, time.time(), retention)
    table.put_log(log)
    return log


def assign(
    device_id: str,
    level: Level,
    created_at: datetime,
    changes: dict[str, str | None],
    repository: DeviceLogsRepository | None = None,
) -> DeviceLog:
    """Set (or, for None, remove) a log's operator and escalation; LogNotFoundError (404) if none."""
    return _table(repository).assign(device_id, level, instant(created_at), changes)


def device_logs(
    device_id: str,
    level: Level | None,
    bounds: Window,
    limit: int,
    token: str | None,
    repository: DeviceLogsRepository | None = None,
) -> dict[str, Any]:
    """A device's logs in the window, newest first, of one level or every level (one Query per level)."""
    token_scope = scope("devices.logs", device=device_id, level=level, low=bounds[0], high=bounds[1])
    levels: Sequence[Level] = [level] if level else list(Level)
    reads = Reads()
    found, cursor = _table(repository).device_logs(
        device_id, levels, bounds, cursor_from(token, token_scope), limit, reads
    )
    return _page(found, cursor, token_scope, reads)


def operator_logs(
    operator: str,
    bounds: Window,
    limit: int,
    token: str | None,
    repository: DeviceLogsRepository | None = None,
) -> dict[str, Any]:
    """The logs an operator handled in the window, newest first."""
    token_scope = scope("devices.operator-logs", operator=operator, low=bounds[0], high=bounds[1])
    reads = Reads()
    found, last = _table(repository).operator_logs(
        operator, bounds, cursor_from(token, token_scope), limit, reads
    )
    return _page(found, last, token_scope, reads)


def escalations(
    escalated_to: str | None,
    level: Level | None,
    limit: int,
    token: str | None,
    repository: DeviceLogsRepository | None = None,
) -> dict[str, Any]:
    """Escalated logs (the sparse index): every one, or one person's (of one level)."""
    token_scope = scope("devices.escalations", to=escalated_to, level=level)
    reads = Reads()
    found, last = _table(repository).escalations(
        escalated_to, level, cursor_from(token, token_scope), limit, reads
    )
    return _page(found, last, token_scope, reads)


def recent(
    hours: int,
    limit: int,
    token: str | None,
    now: float | None = None,
    repository: DeviceLogsRepository | None = None,
) -> dict[str, Any]:
    """Every device's logs of the last `hours`, newest first, from the N shards of the shard index."""
    token_scope = scope("devices.recent", hours=hours)
    cursor = cursor_from(token, token_scope)
    # The window's start travels in the token: page two must not slide along with the clock.
    start = cursor["since"] if cursor else since(hours, time.time() if now is None else now)
    reads = Reads()
    found, merged = _table(repository).recent(start, cursor and cursor["merge"], limit, reads)
    return _page(found, merged and {"since": start, "merge": merged}, token_scope, reads)


def _page(found: list[DeviceLog], cursor: Any, token_scope: str, reads: Reads) -> dict[str, Any]:
    return ListPage([log.to_json() for log in found], cursor or None, reads.total).body(token_scope)


def archive_expired(
    records: list[dict[str, Any]], repository: ArchiveRepository | None = None
) -> ArchivedBatch:
    """Archive a batch's TTL deletions in one object; a record that is not a device log fails alone,
    and all of them fail if S3 refuses the object."""
    expired, failed = expired_logs(records)
    if not expired:
        return ArchivedBatch(failed=failed)
    key = object_key(records)
    try:
        (repository or storage.archive_repository()).write_object(key, archive_object(list(expired.values())))
    except DeviceLogsUnavailableError as exc:
        why = f"{len(expired)} expired logs not archived: {exc}"
        logger.warning("archive object refused; its records will be retried", extra={"error": why})
        return ArchivedBatch(failed=failed | dict.fromkeys(expired, why))
    return ArchivedBatch(key, len(expired), failed)


def archive_batch(event: dict[str, Any], context: LambdaContext | None = None) -> PartialItemFailureResponse:
    """The archiver's work: archive the batch, report what must be retried."""
    batch = archive_expired(event["Records"])
    if batch.key is not None:
        logger.info("archived expired logs", extra={"key": batch.key, "archived": batch.archived})
    return partial_response(event, context, batch.failed)
