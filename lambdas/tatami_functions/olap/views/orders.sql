-- One row per order of seed 002; the GSI keys derived from the status are left out.
SELECT
  item.orderid.s AS order_id,
  item.customerid.s AS customer_id,
  item.orderdate.s AS order_date,
  item.status.s AS status,
  CAST(item.total.n AS DECIMAL(18, 2)) AS total
FROM raw_orders
