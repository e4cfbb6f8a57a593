"""Stream replication (seed 004's logfile -> logfile_replica lab), idempotent and order-safe per key."""
