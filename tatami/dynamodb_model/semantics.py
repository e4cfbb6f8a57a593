"""Where DynamoDB Local bills a read otherwise than DynamoDB's documentation says, and orders keys.

Measured on DynamoDB Local 3.3 (``tests/integration/zindex/test_model_against_dynamodb_local.py``
runs the model both ways):

* **The 1 MB page of a GSI Query.** The documentation: a Query stops once it has read 1 MB of data
  (before any filter), and what a GSI Query reads is its index entries. DynamoDB Local counts the
  whole base item of each entry instead, so its pages hold fewer entries than the service's (the
  entry read that reaches 1 MB is in the page, in both).
* **The read units of a GSI Scan.** The documentation: a Scan of an index reads its entries. DynamoDB
  Local bills the base items (its Queries of the same index it bills by their entries).
* **A read that finds nothing.** The documentation: every read request consumes at least one read
  unit (half of one, eventually consistent). DynamoDB Local reports 0.0 for a Query or Scan page that
  reads no entry.

The order of entries whose index keys are equal is DynamoDB's own business (an internal hash of the
table key); ``hash_order`` follows DynamoDB Local's hash (:mod:`tatami.dynamodb_model.hashing`) for
them, for a table's Scan order and for Scan segments, so that every page cut falls where DynamoDB
Local's does; without it, the model keeps the load order (what a generated 10^8-item table would have
to hash otherwise), and a segment is every n-th row.

Everything else the model bills (read units per 4 KB of the entries read, summed over the page;
write units per 1 KB; a GSI write per index whose entry is put, changed or removed, two when its key
changes) DynamoDB Local bills identically.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["DOCUMENTED", "DYNAMODB_LOCAL", "Semantics"]


@dataclass(frozen=True, slots=True)
class Semantics:
    """``page_bytes``: what a GSI Query's 1 MB counts (its entries, or their base items); ``scan_bytes``:
    what a GSI Scan bills; ``empty_read_units``: what a page that reads nothing costs (eventually
    consistent); ``hash_order``: order ties, Scans and segments by DynamoDB Local's key hash."""

    page_bytes: Literal["entry", "item"] = "entry"
    scan_bytes: Literal["entry", "item"] = "entry"
    empty_read_units: float = 0.5
    hash_order: bool = False


DOCUMENTED = Semantics()
DYNAMODB_LOCAL = Semantics(page_bytes="item", scan_bytes="item", empty_read_units=0.0, hash_order=True)
