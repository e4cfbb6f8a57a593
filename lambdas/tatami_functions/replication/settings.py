"""The replicator's settings (the StreamReplica construct sets them)."""

from __future__ import annotations

from tatami_functions.common.settings import TableSettings, variable

DEFAULT_TOMBSTONE_SECONDS = 2 * 24 * 3600  # longer than a stream keeps records (24 h)


class ReplicatorSettings(TableSettings):
    """The replica, how long a deleted item's tombstone stays, and the queue unreplicable records park on."""

    table: str = variable("REPLICA_TABLE")
    failure_queue_url: str = variable("REPLICATION_FAILURE_QUEUE_URL")
    tombstone_seconds: int = variable("TOMBSTONE_SECONDS", int, default=DEFAULT_TOMBSTONE_SECONDS)
