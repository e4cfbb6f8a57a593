"""The device-logs functions' settings (infra/services/devices.py sets them)."""

from __future__ import annotations

from tatami_functions.common.settings import Settings, TableSettings, variable
from tatami_functions.devices.schemas import DEFAULT_RETENTION_DAYS

DEFAULT_SHARDS = 10


class DeviceLogsSettings(TableSettings):
    """The API function: its table, N of the random-shard GSI, and how long a new log is kept."""

    table: str = variable("DEVICE_LOGS_TABLE_NAME")
    shards: int = variable("DEVICES_LOG_SHARDS", int, default=DEFAULT_SHARDS)
    retention_days: int = variable("DEVICES_LOG_RETENTION_DAYS", int, default=DEFAULT_RETENTION_DAYS)


class ArchiveSettings(Settings):
    """The TTL archiver: the bucket the expired logs go to."""

    bucket: str = variable("ARCHIVE_BUCKET_NAME")
