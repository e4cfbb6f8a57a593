"""The seed's `device_logs` table, declared once: the repository queries by it, the construct builds it.

The sort key is the composite `level_with_created_at` ("WARNING#<created_at>"). Three GSIs answer
the other reads: an operator's logs by time, the sparse escalation index (only escalated logs carry
`escalated_to`, so even a Scan of it reads nothing else), and the random-shard index that spreads
"every device's recent logs" over N partitions. TTL deletes expired logs (`expires_at`), and the
stream's old images are what the TTL archiver writes to S3.
"""

from __future__ import annotations

from tatami_functions.common.tables import IndexSchema, Key, TableSchema

OPERATOR_INDEX = IndexSchema("GSI_operator_created_at", "operator", "created_at")
ESCALATION_INDEX = IndexSchema(
    "GSI_escalated_to_level_with_created_at", "escalated_to", "level_with_created_at"
)
SHARD_INDEX = IndexSchema("GSI_shard_id_created_at", Key("shard_id", "N"), "created_at")
DEVICE_LOGS = TableSchema(
    "device_id",
    "level_with_created_at",
    indexes=(OPERATOR_INDEX, ESCALATION_INDEX, SHARD_INDEX),
    ttl_attribute="expires_at",
    stream="OLD_IMAGE",  # the archiver needs the deleted item
)
