"""The IP lookup's AWS calls: reads of the ranges table, the alias (which version is live) and the
one-Query lookup.

Owns the read expressions; every SDK error leaves it as a `RangesUnavailableError` (503 with
`Retry-After`). The client is created on first use and reused across warm invocations (and across the
batch route's threads: boto3 clients are thread-safe). The loader (`tatami load-ip`) reads the alias
through it too.
"""

from __future__ import annotations

from typing import Any

from tatami_functions.common.repository import TableRepository
from tatami_functions.ip_lookup.addresses import Address
from tatami_functions.ip_lookup.exceptions import RangesUnavailableError
from tatami_functions.ip_lookup.keys import (
    ALIAS_PK,
    PK,
    SK,
    Found,
    Pointer,
    found_from_item,
    pointer_from_item,
    singleton_key,
)
from tatami_functions.ip_lookup.settings import LookupSettings

_LOOKUP = f"{PK} = :pk AND {SK} <= :address"


class RangesRepository(TableRepository):
    """The ranges table seen by the lookup function.

    For example (not run as a doctest)::

        ranges = RangesRepository("Tatami-Ranges", client=boto3.client("dynamodb"))
        ranges.find(ranges.pointer(), parse_address("8.8.8.8"))
        # -> (Found(start='8.8.8.0', end='8.8.8.255', ...), 0.5)
    """

    noun, unavailable, settings = "the ranges table", RangesUnavailableError, LookupSettings

    def pointer(self) -> Pointer | None:
        """The live dataset (a strongly consistent read: it is taken right after a switch), or None."""
        response = self._call(
            "get_item",
            action="read the IP ranges' dataset alias",
            TableName=self.table_name,
            Key=singleton_key(ALIAS_PK),
            ConsistentRead=True,
        )
        item = response.get("Item")
        return pointer_from_item(item) if item else None

    def find(self, pointer: Pointer, address: Address) -> tuple[Found | None, float]:
        """The item at or below `address` in its partition, and the read capacity it cost.

        One Query, newest first, `Limit=1`: a single small item, 0.5 RCU (eventually consistent).
        """
        response = self._call(
            "query",
            TableName=self.table_name,
            KeyConditionExpression=_LOOKUP,
            ExpressionAttributeValues={
                ":pk": {"S": pointer.partition_key(address)},
                ":address": {"B": address.packed},
            },
            ScanIndexForward=False,
            Limit=1,
            ReturnConsumedCapacity="TOTAL",
        )
        items: list[Any] = response.get("Items", [])
        consumed = float(response.get("ConsumedCapacity", {}).get("CapacityUnits", 0.0))
        return (found_from_item(items[0]) if items else None), consumed


def repository() -> RangesRepository:
    """The function's repository, named by its environment (created once per execution environment)."""
    return RangesRepository.from_environment()
