"""The shards table: one item per shard, partition key `<name>#<n>`, attributes `count` and `v`.

`count` is the shard's part of the counter; `v` counts the writes to the shard. Every increment
adds to both in one update (`shard_update`: alone, or inside a keyed increment's transaction), so a
stream record's NewImage carries an absolute count and a version that orders it: the roll-up keeps
the newest version per shard and never double counts.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Any

from tatami_functions.common.dependencies import THROTTLED_RETRY_AFTER
from tatami_functions.counters.exceptions import CounterUnavailableError
from tatami_functions.counters.repository import CountersRepository
from tatami_functions.counters.sharding import shard_key

KEY = "pk"
COUNT = "count"  # a reserved word in expressions: always through #c
VERSION = "v"
BATCH_GET_LIMIT = 100  # keys per BatchGetItem call
_UNPROCESSED_ATTEMPTS = 8


@cache
def _pool() -> ThreadPoolExecutor:
    # At most MAX_SHARDS / 100 = 10 calls per read; the pool lives as long as the environment.
    return ThreadPoolExecutor(max_workers=10, thread_name_prefix="shards")


def shard_update(table: str, name: str, shard: int, by: int) -> dict[str, Any]:
    """The update that adds `by` to shard `shard` of counter `name` (an UpdateItem's or a transaction's).

    >>> shard_update("T", "votes-A", 3, 1)["UpdateExpression"]
    'ADD #c :by, #v :one'
    """
    return {
        "TableName": table,
        "Key": {KEY: {"S": shard_key(name, shard)}},
        "UpdateExpression": "ADD #c :by, #v :one",
        "ExpressionAttributeNames": {"#c": COUNT, "#v": VERSION},
        "ExpressionAttributeValues": {":by": {"N": str(by)}, ":one": {"N": "1"}},
    }


class ShardsTable(CountersRepository):
    """Adds to shards (the writer) and sums them (the reader)."""

    noun, table_setting = "counter shards", "shards_table"

    def add_to_shard(self, name: str, shard: int, by: int) -> float:
        """Add `by` to shard `shard` of counter `name` (creates the shard item on its first write).

        Returns the write units consumed (a shard item is under 1 KB: 1 WCU).

        >>> ShardsTable.from_environment().add_to_shard("votes-A", 3, 1)  # doctest: +SKIP
        1.0
        """
        update = shard_update(self.table_name, name, shard, by)
        response = self._call("update_item", **update, ReturnConsumedCapacity="TOTAL")
        return float(response.get("ConsumedCapacity", {}).get("CapacityUnits", 0.0))

    def sum_shards(self, name: str, shards: int, consistent: bool = False) -> int:
        """The sum of shards 0..shards-1, read with BatchGetItem calls of 100 keys run in parallel.

        A shard never written has no item and counts 0.

        >>> ShardsTable.from_environment().sum_shards("votes-A", 150, consistent=True)  # doctest: +SKIP
        42
        """
        keys = [shard_key(name, n) for n in range(shards)]
        chunks = [keys[i : i + BATCH_GET_LIMIT] for i in range(0, len(keys), BATCH_GET_LIMIT)]
        if len(chunks) == 1:
            return self._sum_chunk(chunks[0], consistent)
        return sum(_pool().map(lambda chunk: self._sum_chunk(chunk, consistent), chunks))

    def _sum_chunk(self, keys: list[str], consistent: bool) -> int:
        request: dict[str, Any] = {
            self.table_name: {
                "Keys": [{KEY: {"S": key}} for key in keys],
                "ProjectionExpression": "#c",
                "ExpressionAttributeNames": {"#c": COUNT},
                "ConsistentRead": consistent,
            }
        }
        found = 0
        for attempt in range(_UNPROCESSED_ATTEMPTS):
            response = self._call("batch_get_item", RequestItems=request, action="read counter shards")
            items = response["Responses"].get(self.table_name, [])
            found += sum(int(item[COUNT]["N"]) for item in items if COUNT in item)
            request = dict(response.get("UnprocessedKeys") or {})
            if not request:
                return found
            time.sleep(min(1.0, 0.025 * 2**attempt))  # throttled: back off as the SDK guides suggest
        left = len(request[self.table_name]["Keys"])
        raise CounterUnavailableError(
            f"cannot read counter shards: {left} keys left unprocessed (throttled)",
            retry_after=THROTTLED_RETRY_AFTER,
        )
