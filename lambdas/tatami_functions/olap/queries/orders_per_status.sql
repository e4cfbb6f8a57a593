-- Orders per status: how many, their total amount and the newest order date.
SELECT
  status,
  COUNT(*) AS orders,
  SUM(total) AS amount,
  MAX(order_date) AS latest_order
FROM orders
GROUP BY 1
ORDER BY 1
