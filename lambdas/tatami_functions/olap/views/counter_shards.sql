-- One row per shard item of the write-sharded counters: the counter, the shard, what it counted.
SELECT
  split_part(item.pk.s, '#', 1) AS counter,
  CAST(split_part(item.pk.s, '#', 2) AS INTEGER) AS shard,
  COALESCE(CAST(item."count".n AS BIGINT), 0) AS counted,
  COALESCE(CAST(item.v.n AS BIGINT), 0) AS writes
FROM raw_counter_shards
