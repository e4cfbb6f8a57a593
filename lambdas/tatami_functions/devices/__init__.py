"""Device logs (seed 004): composite sort key, operator GSI, sparse escalation GSI, random-shard GSI, TTL."""
