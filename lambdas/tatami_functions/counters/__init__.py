"""Write-sharded counters (seed 004's votes example): sharded increments, summed reads, a stream roll-up.

`PUT /counters/{name}` sizes a counter's shards by the seed's formula (`sharding`), `POST
/counters/{name}/increments` adds to a random shard (exactly once per Idempotency-Key: `idempotency`),
`GET /counters/{name}` sums the shards or reads the roll-up the shards' stream keeps (`rollup`).
"""
