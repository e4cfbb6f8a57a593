"""Replication (seed 004's `logfile` -> `logfile_replica` lab): the source table's stream applied to a
replica, idempotent and order-safe per key; records the replica can never store are parked on a queue."""
