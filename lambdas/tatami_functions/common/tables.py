"""A table's shape, declared once: its keys, GSIs, TTL attribute and stream.

Pure data, no CDK or boto3 import. Each service declares its tables in its `table.py`; the service's
repository reads key and index names from that declaration, the service's construct (`infra/services`)
builds the CloudFormation table from it (`infra.constructs.data_table.DataTable.from_schema`), and tests
and tools build the same CreateTable request from it (`create_table_request`). So a table's key or GSI
name is written in one place, and the deployed table and the code that queries it cannot disagree.

>>> ORDERS = TableSchema("OrderId", indexes=(IndexSchema("ByCustomer", "CustomerId", "OrderDate"),))
>>> ORDERS.index("ByCustomer").key_names
('CustomerId', 'OrderDate')
>>> ORDERS.create_table_request("Orders")["KeySchema"]
[{'AttributeName': 'OrderId', 'KeyType': 'HASH'}]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["IndexSchema", "Key", "TableSchema"]

AttributeType = Literal["S", "N", "B"]
StreamView = Literal["KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES"]


@dataclass(frozen=True, slots=True)
class Key:
    """A key attribute: its name and DynamoDB scalar type (a string unless said otherwise)."""

    name: str
    type: AttributeType = "S"


def _key(key: str | Key | None) -> Key | None:
    return Key(key) if isinstance(key, str) else key


@dataclass(frozen=True, slots=True)
class IndexSchema:
    """A GSI: its keys and projection. `include` lists the non-key attributes it projects (INCLUDE);
    `keys_only` projects the keys alone; neither projects every attribute (ALL).

    >>> IndexSchema("by-shard", Key("shard_id", "N"), "created_at", keys_only=True).projection
    'KEYS_ONLY'
    """

    name: str
    partition_key: Key
    sort_key: Key | None = None
    include: tuple[str, ...] | None = None
    keys_only: bool = False

    def __init__(
        self,
        name: str,
        partition_key: str | Key,
        sort_key: str | Key | None = None,
        include: tuple[str, ...] | None = None,
        keys_only: bool = False,
    ) -> None:
        if include is not None and keys_only:
            raise ValueError(f"index {name}: include and keys_only exclude each other")
        for attribute, value in (
            ("name", name),
            ("partition_key", _key(partition_key)),
            ("sort_key", _key(sort_key)),
            ("include", include),
            ("keys_only", keys_only),
        ):
            object.__setattr__(self, attribute, value)

    @property
    def projection(self) -> Literal["ALL", "KEYS_ONLY", "INCLUDE"]:
        if self.keys_only:
            return "KEYS_ONLY"
        return "ALL" if self.include is None else "INCLUDE"

    @property
    def keys(self) -> tuple[Key, ...]:
        return (self.partition_key, *([self.sort_key] if self.sort_key else []))

    @property
    def key_names(self) -> tuple[str, ...]:
        return tuple(key.name for key in self.keys)

    def request(self) -> dict[str, Any]:
        """The index as CreateTable's `GlobalSecondaryIndexes` entry."""
        projection: dict[str, Any] = {"ProjectionType": self.projection}
        if self.include is not None:
            projection["NonKeyAttributes"] = list(self.include)
        return {"IndexName": self.name, "KeySchema": _key_schema(self.keys), "Projection": projection}


@dataclass(frozen=True, slots=True)
class TableSchema:
    """A table: its keys, GSIs, the attribute DynamoDB's TTL deletes by (if any) and the view its
    stream carries (if it streams its changes)."""

    partition_key: Key
    sort_key: Key | None = None
    indexes: tuple[IndexSchema, ...] = ()
    ttl_attribute: str | None = None
    stream: StreamView | None = None

    def __init__(
        self,
        partition_key: str | Key,
        sort_key: str | Key | None = None,
        indexes: tuple[IndexSchema, ...] = (),
        ttl_attribute: str | None = None,
        stream: StreamView | None = None,
    ) -> None:
        for attribute, value in (
            ("partition_key", _key(partition_key)),
            ("sort_key", _key(sort_key)),
            ("indexes", tuple(indexes)),
            ("ttl_attribute", ttl_attribute),
            ("stream", stream),
        ):
            object.__setattr__(self, attribute, value)
        names = [index.name for index in self.indexes]
        if len(set(names)) != len(names):
            raise ValueError(f"index names repeat: {names}")

    @property
    def keys(self) -> tuple[Key, ...]:
        return (self.partition_key, *([self.sort_key] if self.sort_key else []))

    @property
    def key_names(self) -> tuple[str, ...]:
        """The table's key attributes (what a `Key=` or an ExclusiveStartKey holds)."""
        return tuple(key.name for key in self.keys)

    def index(self, name: str) -> IndexSchema:
        """The GSI called `name` (a KeyError naming the table's GSIs if there is none)."""
        for index in self.indexes:
            if index.name == name:
                return index
        raise KeyError(f"no GSI {name!r}; this table has {[i.name for i in self.indexes]}")

    def attribute_types(self) -> dict[str, AttributeType]:
        """Every key attribute of the table and its GSIs with its type (a name must keep one type)."""
        types: dict[str, AttributeType] = {}
        for key in (*self.keys, *(k for index in self.indexes for k in index.keys)):
            if types.setdefault(key.name, key.type) != key.type:
                raise ValueError(
                    f"key attribute {key.name} is declared as both {types[key.name]} and {key.type}"
                )
        return types

    def create_table_request(self, name: str) -> dict[str, Any]:
        """The CreateTable request for this table (tests and tools; the stack builds it with CDK).
        TTL is a separate call (UpdateTimeToLive) and is not part of it.

        >>> TableSchema("user_id", indexes=(IndexSchema("by-month", Key("month", "N"), "user_id"),)
        ...             ).create_table_request("T")["AttributeDefinitions"][0]
        {'AttributeName': 'month', 'AttributeType': 'N'}
        """
        request: dict[str, Any] = {
            "TableName": name,
            "KeySchema": _key_schema(self.keys),
            "AttributeDefinitions": [
                {"AttributeName": n, "AttributeType": t} for n, t in sorted(self.attribute_types().items())
            ],
            "BillingMode": "PAY_PER_REQUEST",
        }
        if self.indexes:
            request["GlobalSecondaryIndexes"] = [index.request() for index in self.indexes]
        if self.stream:
            request["StreamSpecification"] = {"StreamEnabled": True, "StreamViewType": self.stream}
        return request


def _key_schema(keys: tuple[Key, ...]) -> list[dict[str, str]]:
    return [
        {"AttributeName": key.name, "KeyType": kind}
        for key, kind in zip(keys, ("HASH", "RANGE"), strict=False)
    ]
