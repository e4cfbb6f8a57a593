"""Device logs behind `/devices/{id}/logs`, `/operators/{name}/logs`, `/escalations` and `/logs/recent`
(seed 004): a composite sort key, an operator GSI, a sparse escalation GSI, a random-shard GSI, TTL, and
an archiver writing the logs TTL deleted to S3."""
