"""Seed 002's Orders behind `/orders` and `/customers`: GSIs designed query-first, a composite sort key,
a write-sharded status index, and `GET /orders/search` (date x total x status) through the Z-index engine."""
