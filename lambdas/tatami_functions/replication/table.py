"""The replication's tables, declared once: the workshop's `logfile` (the source, streaming new images)
and `logfile_replica` (the same keys and host index, and TTL on its tombstones' `_rep_expires`).

The construct builds both from these declarations; the replicator only ever puts into the replica.
"""

from __future__ import annotations

from tatami_functions.common.tables import IndexSchema, TableSchema
from tatami_functions.replication.records import EXPIRES

HOSTS = IndexSchema("GSI_1", "GSI_1_PK", include=("bytessent", "requestid", "host"))
# REMOVE records carry the keys anyway: new images are all the replicator needs.
SOURCE = TableSchema("PK", indexes=(HOSTS,), stream="NEW_IMAGE")
REPLICA = TableSchema("PK", indexes=(HOSTS,), ttl_attribute=EXPIRES)
