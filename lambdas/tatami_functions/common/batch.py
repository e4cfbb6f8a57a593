"""Batch writes and reads of one table, with one retry policy for what DynamoDB leaves unprocessed.

BatchWriteItem takes 25 requests and BatchGetItem 100 keys per call, and either may hand back part of
its work unprocessed when the table is throttled: the SDK's retries do not cover that, the caller must
send the rest again after a backoff. Every batch in tatami goes through here, so they all back off
alike (exponential from 50 ms, capped at 2 s, full jitter as AWS's backoff guidance suggests) and give
up alike: after `MAX_ROUNDS` rounds the table's repository raises its 503 error ("... left N items
unprocessed (throttled); retry after 1 s"), never a silent partial write.

>>> rounds, delays = [], []
>>> class Throttled(TableRepository):
...     noun, unavailable = "places", DependencyError
...     def _call(self, operation, /, **request):
...         rounds.append(len(request["RequestItems"]["T"]))
...         return {"UnprocessedItems": {"T": request["RequestItems"]["T"][:1]} if len(rounds) < 3 else {}}
>>> write_all(Throttled("T", client=object()), [{"PutRequest": {"Item": {}}}] * 30, sleep=delays.append)
30
>>> rounds, len(delays)
([25, 1, 1, 5], 2)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from tatami_functions.common.dependencies import THROTTLED_RETRY_AFTER, DependencyError
from tatami_functions.common.repository import TableRepository

__all__ = ["GET_BATCH", "MAX_ROUNDS", "WRITE_BATCH", "backoff", "get_all", "write_all"]

WRITE_BATCH, GET_BATCH = 25, 100  # DynamoDB's limits per call
MAX_ROUNDS = 8  # the first call and seven resends of what stayed unprocessed
_BASE, _CAP = 0.05, 2.0

Sleep = Callable[[float], None]


def backoff(round_: int, rng: random.Random | None = None) -> float:
    """Seconds to wait before resend `round_` (1, 2, ...): full jitter under 50 ms * 2**round, at most 2 s.

    >>> 0 <= backoff(1) <= 0.1 and 0 <= backoff(10) <= 2.0
    True
    """
    return (rng or random).uniform(0, min(_CAP, _BASE * 2**round_))


def write_all(
    table: TableRepository, requests: Sequence[dict[str, Any]], *, sleep: Sleep = time.sleep
) -> int:
    """Send `requests` (PutRequest/DeleteRequest entries) to `table` in batches of 25, resending what
    stays unprocessed; the number sent. The table's 503 error if some stay unprocessed after
    `MAX_ROUNDS` rounds."""
    for start in range(0, len(requests), WRITE_BATCH):
        batch = list(requests[start : start + WRITE_BATCH])
        for round_ in range(MAX_ROUNDS):
            if round_:
                sleep(backoff(round_))
            response = table._call("batch_write_item", RequestItems={table.table_name: batch})
            batch = response.get("UnprocessedItems", {}).get(table.table_name, [])
            if not batch:
                break
        else:
            raise _left_unprocessed(table, "write", len(batch))
    return len(requests)


def get_all(
    table: TableRepository,
    keys: Iterable[dict[str, Any]],
    *,
    sleep: Sleep = time.sleep,
    **read: Any,
) -> list[dict[str, Any]]:
    """The items of `keys` (low-level keys) that exist, in no particular order, read in batches of 100;
    `read` adds BatchGetItem's per-table options (ProjectionExpression, ConsistentRead, ...)."""
    pending, found = list(keys), []
    for start in range(0, len(pending), GET_BATCH):
        request = {table.table_name: {"Keys": pending[start : start + GET_BATCH], **read}}
        for round_ in range(MAX_ROUNDS):
            if round_:
                sleep(backoff(round_))
            response = table._call("batch_get_item", RequestItems=request)
            found += response.get("Responses", {}).get(table.table_name, [])
            request = dict(response.get("UnprocessedKeys") or {})
            if not request:
                break
        else:
            raise _left_unprocessed(table, "read", len(request[table.table_name]["Keys"]))
    return found


def _left_unprocessed(table: TableRepository, verb: str, left: int) -> Exception:
    what = f"cannot {verb} {table.noun or table.table_name}"
    message = (
        f"{what}: DynamoDB left {left} items unprocessed (throttled); retry after {THROTTLED_RETRY_AFTER} s"
    )
    error = table.unavailable(message)
    if isinstance(error, DependencyError):
        error.retry_after = THROTTLED_RETRY_AFTER
    return error
