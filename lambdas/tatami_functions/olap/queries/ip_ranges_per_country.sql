-- IP ranges and IPv4 addresses per country in the live dataset (no country column: 'unknown').
SELECT
  COALESCE(country, 'unknown') AS country,
  COUNT(*) AS ranges,
  SUM(CASE WHEN family = '4' THEN 1 ELSE 0 END) AS ipv4_ranges,
  COALESCE(SUM(addresses), 0) AS ipv4_addresses
FROM ip_ranges
GROUP BY 1
ORDER BY 4 DESC, 1
