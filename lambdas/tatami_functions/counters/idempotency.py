"""Keyed increments' records: that an increment with an Idempotency-Key happened, and its answer.

A key is scoped to the counter and the caller (two clients picking the same key do not collide) and
bound to `by` (a key reused for another increment is refused, not replayed). The record's layout is
Powertools Idempotency's (`id`, `status`, `data`, `validation`, `expiration`), the table's since the
start, so records written before increments became one transaction still replay. Pure but for the
clock and the key's lifetime (`CountersSettings.idempotency_ttl_seconds`).
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from typing import Any

from tatami_functions.counters.settings import settings

__all__ = ["KEY_PREFIX", "IncrementRecord", "new_record"]

# The records' key prefix, as Powertools Idempotency wrote it (records from before still replay).
KEY_PREFIX = "counters.increment"


@dataclass(frozen=True, slots=True)
class IncrementRecord:
    """That a keyed increment happened: its key's hash, the answer it got, its `by`'s hash, its expiry.

    `status` is "COMPLETED" for every record written now; "INPROGRESS" is only ever a legacy record
    of a request that died half-way.
    """

    id: str
    response: dict[str, Any]
    validation: str
    expiration: int  # epoch seconds: the table's TTL attribute, and the end of the key's 24 hours
    status: str = "COMPLETED"


def new_record(name: str, key: str, caller: str, by: int, answer: dict[str, Any]) -> IncrementRecord:
    """The record of a keyed increment, with Powertools Idempotency's hashes of its key and its `by`.

    >>> new_record("votes-A", "k", "", 1, {}).id[:27]
    'counters.increment#45e243b8'
    """
    expiration = int(time.time()) + settings().idempotency_ttl_seconds
    return IncrementRecord(f"{KEY_PREFIX}#{_hash([name, key, caller])}", answer, _hash(by), expiration)


def _hash(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()
