"""Seed 002's Orders: GSIs designed query-first, a composite sort key, a write-sharded status index."""
