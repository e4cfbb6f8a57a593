-- Device logs per day (UTC) and level.
SELECT
  day,
  level,
  COUNT(*) AS logs,
  COUNT(DISTINCT device_id) AS devices
FROM device_logs
GROUP BY 1, 2
ORDER BY 1, 2
