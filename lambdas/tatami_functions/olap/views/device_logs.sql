-- One row per device log; `day` is the UTC date of created_at (stored as canonical ISO-8601 UTC text).
SELECT
  item.device_id.s AS device_id,
  item.level.s AS level,
  item.created_at.s AS created_at,
  substr(item.created_at.s, 1, 10) AS day,
  item.message.s AS message,
  item.operator.s AS operator,
  item.escalated_to.s AS escalated_to,
  CAST(item.expires_at.n AS BIGINT) AS expires_at
FROM raw_device_logs
