"""Reads of the ranges table: the alias (which version is live) and the one-Query lookup.

Owns the read expressions and translates `ClientError` into `RangesUnavailableError`. The client is
created on first use and reused across warm invocations (and across the batch route's threads:
boto3 clients are thread-safe).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from ip_lookup.addresses import Address
from ip_lookup.exceptions import RangesUnavailableError
from ip_lookup.keys import ALIAS_PK, PK, SK, Found, Pointer, found_from_item, pointer_from_item, singleton_key

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

TABLE_ENV = "IP_RANGES_TABLE"
# The batch route runs up to 16 queries at once; keep a pooled connection for each.
_CONFIG = Config(max_pool_connections=32, retries={"mode": "standard", "max_attempts": 3})
_LOOKUP = f"{PK} = :pk AND {SK} <= :address"


class RangesTable:
    """The ranges table seen by the lookup function.

    >>> table = RangesTable("Tatami-Ranges", client=boto3.client("dynamodb"))  # doctest: +SKIP
    >>> table.find(table.pointer(), parse_address("8.8.8.8"))  # doctest: +SKIP
    (Found(start='8.8.8.0', end='8.8.8.255', ...), 0.5)
    """

    def __init__(self, table_name: str, client: DynamoDBClient | None = None) -> None:
        self.table_name = table_name
        self._client = client

    @property
    def client(self) -> DynamoDBClient:
        if self._client is None:
            self._client = boto3.client("dynamodb", config=_CONFIG)
        return self._client

    def pointer(self) -> Pointer | None:
        """The live dataset (a strongly consistent read: it is taken right after a switch), or None."""
        try:
            response = self.client.get_item(
                TableName=self.table_name, Key=singleton_key(ALIAS_PK), ConsistentRead=True
            )
        except (ClientError, BotoCoreError) as exc:
            raise RangesUnavailableError(f"cannot read the dataset alias: {exc}") from exc
        item = response.get("Item")
        return pointer_from_item(item) if item else None

    def find(self, pointer: Pointer, address: Address) -> tuple[Found | None, float]:
        """The item at or below `address` in its partition, and the read capacity it cost.

        One Query, newest first, `Limit=1`: a single small item, 0.5 RCU (eventually consistent).
        """
        try:
            response = self.client.query(
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
        except (ClientError, BotoCoreError) as exc:
            raise RangesUnavailableError(f"cannot query the ranges table: {exc}") from exc
        items: list[Any] = response.get("Items", [])
        consumed = float(response.get("ConsumedCapacity", {}).get("CapacityUnits", 0.0))
        return (found_from_item(items[0]) if items else None), consumed


_default: RangesTable | None = None


def default_table() -> RangesTable:
    """The function's table, named by its environment (created once per execution environment)."""
    global _default
    if _default is None:
        _default = RangesTable(os.environ[TABLE_ENV])
    return _default
