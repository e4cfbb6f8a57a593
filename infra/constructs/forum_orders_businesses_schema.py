"""Key schemas of the seed 001/002 models: the Forum, Thread and Reply tables, Orders (+ Customers), Business.

Pure data, no CDK import: the constructs build their tables from it, and tests build the same
CreateTable requests from it without synthesizing the app (the template tests prove the two agree).
Every key attribute is a string: the seeds' keys are names, ids and ISO-8601 timestamps, and the
composite keys (`Status#OrderDate`, `Country:State:City`) only work as strings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class IndexSchema:
    """A GSI: its keys and projection (`include` lists the non-key attributes; `None` means ALL)."""

    name: str
    partition_key: str
    sort_key: str | None = None
    include: tuple[str, ...] | None = None

    def request(self) -> dict[str, Any]:
        projection: dict[str, Any] = {"ProjectionType": "ALL"}
        if self.include is not None:
            projection = {"ProjectionType": "INCLUDE", "NonKeyAttributes": list(self.include)}
        return {
            "IndexName": self.name,
            "KeySchema": _keys(self.partition_key, self.sort_key),
            "Projection": projection,
        }


@dataclass(frozen=True, slots=True)
class TableSchema:
    """A table: keys, GSIs and whether it streams its changes (NEW_AND_OLD_IMAGES)."""

    partition_key: str
    sort_key: str | None = None
    indexes: tuple[IndexSchema, ...] = ()
    stream: bool = False

    def create_table_request(self, name: str) -> dict[str, Any]:
        """The CreateTable request for this schema (tests and tools; the stack builds it with CDK).

        >>> FORUMS.create_table_request("Forum")["KeySchema"]
        [{'AttributeName': 'Name', 'KeyType': 'HASH'}]
        """
        names = {self.partition_key, *([self.sort_key] if self.sort_key else [])}
        for index in self.indexes:
            names |= {index.partition_key, *([index.sort_key] if index.sort_key else [])}
        request: dict[str, Any] = {
            "TableName": name,
            "KeySchema": _keys(self.partition_key, self.sort_key),
            "AttributeDefinitions": [{"AttributeName": n, "AttributeType": "S"} for n in sorted(names)],
            "BillingMode": "PAY_PER_REQUEST",
        }
        if self.indexes:
            request["GlobalSecondaryIndexes"] = [index.request() for index in self.indexes]
        if self.stream:
            request["StreamSpecification"] = {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"}
        return request


def _keys(partition_key: str, sort_key: str | None) -> list[dict[str, str]]:
    keys = [{"AttributeName": partition_key, "KeyType": "HASH"}]
    return keys + ([{"AttributeName": sort_key, "KeyType": "RANGE"}] if sort_key else [])


# Seed 001: three tables exactly as drawn. Reply's hash key joins forum and subject with '#'.
FORUMS = TableSchema("Name")
THREADS = TableSchema("ForumName", "Subject")
REPLIES = TableSchema("Id", "ReplyDateTime")

# Seed 002 Orders. One GSI answers three questions (by date, a date range, OrderId/OrderDate/Status);
# OrderId and OrderDate are keys of the index, so INCLUDE adds Status only.
CUSTOMER_ORDERS = IndexSchema("CustomerOrders", "CustomerId", "OrderDate", include=("Status",))
# Composite sort key `Status#OrderDate`: "PENDING orders older than five days" is one key condition.
CUSTOMER_STATUS_ORDERS = IndexSchema(
    "CustomerStatusOrders", "CustomerId", "StatusDate", include=("OrderDate", "Status")
)
# Write-sharded: `Status#n` (n random in 1..N) spreads a low-cardinality status over N partitions
# (N: the service's orders.keys.DEFAULT_SHARDS unless the stack says otherwise, at most MAX_SHARDS).
STATUS_ORDERS = IndexSchema("StatusOrders", "StatusShard", "OrderDate", include=("CustomerId", "Status"))
# No stream: nothing consumes the orders' changes (analytics read point-in-time exports instead).
ORDERS = TableSchema("OrderId", indexes=(CUSTOMER_ORDERS, CUSTOMER_STATUS_ORDERS, STATUS_ORDERS))
# The customer's summary (order count, total, last order), updated in the same transaction as the order.
CUSTOMERS = TableSchema("CustomerId")

# Seed 002 Business: drill-down by BusinessType + `Country:State:City`. Sparse: a business without a
# full location is written without `Location` and so is absent from the index.
BUSINESS_LOCATION = IndexSchema(
    "BusinessLocation",
    "BusinessType",
    "Location",
    include=("BusinessName", "BusinessAddress", "PhoneNumber"),
)
BUSINESSES = TableSchema("BusinessId", indexes=(BUSINESS_LOCATION,))
