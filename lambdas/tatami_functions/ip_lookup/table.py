"""The ranges table, declared once (read by the repository and the loader, built by
`infra.services.ip_lookup`): partition key `pk` (String: the dataset version, address family and
prefix, e.g. ``v3#4#8.0.0.0/8``), sort key `sk` (Binary: a range's first address, big-endian, 4 or
16 bytes, so byte order is numeric order). No GSI, no stream; `keys` says what the items hold."""

from __future__ import annotations

from tatami_functions.common.tables import Key, TableSchema

__all__ = ["RANGES"]

RANGES = TableSchema("pk", Key("sk", "B"))
