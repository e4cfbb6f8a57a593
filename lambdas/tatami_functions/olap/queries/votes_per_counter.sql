-- Votes per counter: every shard's count summed, and how many shards took writes.
SELECT
  counter,
  SUM(counted) AS votes,
  COUNT(*) AS shards_written
FROM counter_shards
GROUP BY counter
ORDER BY 2 DESC, 1
