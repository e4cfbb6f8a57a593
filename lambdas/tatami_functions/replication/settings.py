"""The replicator's settings (the replication construct sets them)."""

from __future__ import annotations

from tatami_functions.common.settings import TableSettings, variable

DEFAULT_TOMBSTONE_SECONDS = 2 * 24 * 3600  # longer than a stream keeps records (24 h)


class ReplicatorSettings(TableSettings):
    """The replica, the queue unreplicable records park on, and how long a deleted item's tombstone stays."""

    table: str = variable("REPLICA_TABLE_NAME")
    failure_queue_url: str = variable("REPLICATION_FAILURES_QUEUE_URL")
    tombstone_seconds: int = variable("REPLICATION_TOMBSTONE_SECONDS", int, default=DEFAULT_TOMBSTONE_SECONDS)
