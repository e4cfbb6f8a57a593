"""The counters' three tables, declared once (read by the repository, built by the `ShardedCounter`
pattern: infra/patterns/sharded_counter.py).

- `SHARDS`: one item per shard, partition key `<name>#<n>` (`sharding.shard_key`), attributes `count`
  (the shard's part of the counter) and `v` (the writes it took). Every increment adds to both in
  one update, so a stream record's new image carries an absolute count and a version that orders it:
  the roll-up keeps the newest version per shard and never double counts. It streams NEW_IMAGE, all
  the roll-up needs.
- `COUNTERS`: per counter name, a `config` item (its shard count, the target it was sized for) and a
  `rollup` item (per shard n an attribute `s<n>` = [version, count, approximate time] of the newest
  stream record applied). No stream: roll-up writes must not feed one.
- `IDEMPOTENCY`: one record per Idempotency-Key used (`id`), deleted by TTL on `expiration`: Powertools
  Idempotency's layout, which records written before increments became one transaction keep.
"""

from __future__ import annotations

from tatami_functions.common.tables import TableSchema

__all__ = ["COUNT", "COUNTERS", "IDEMPOTENCY", "SHARDS", "VERSION"]

SHARDS = TableSchema("pk", stream="NEW_IMAGE")
COUNTERS = TableSchema("name", "item")
IDEMPOTENCY = TableSchema("id", ttl_attribute="expiration")

# A shard item's attributes besides its key (the roll-up reads them from the stream's new images).
COUNT = "count"  # a reserved word in expressions: always through a name placeholder
VERSION = "v"
