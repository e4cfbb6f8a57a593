"""The exported tables as analytics sees them: each attribute's DynamoDB type, per table key.

Every table of the app with point-in-time recovery is exported (the CDK app finds them in the stack);
its key is its stack output's name in snake case (`OrdersTableName` -> `orders`). An export holds
every attribute of every item, but Athena needs a schema: the Glue table's one column `item` is a
struct with one field per attribute, each a struct keyed by the DynamoDB type (`{"S": ...}`,
`{"N": ...}`), exactly as the export's DynamoDB JSON writes them. DuckDB reads the same files with
the same struct, so one view text works in both (`item.pk.s`). A table's visible attributes are its
key and index attributes (from its definition: the template, or DescribeTable), unless its service
declares more in `DECLARED` below. Attributes not visible are still exported, just not to SQL.
Pure: the CDK app imports it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

Shape = Mapping[str, "str | Shape"]  # attribute -> "S" | "N" | "B" | "BOOL", or a map's own shape
# A table's AttributeDefinitions, as the template and DescribeTable both write them.
KeyDefinitions = Iterable[Mapping[str, str]]  # [{"AttributeName": "pk", "AttributeType": "S"}, ...]

_GLUE = {"S": "string", "N": "string", "B": "string", "BOOL": "boolean"}  # N and B stay text, as exported
_DUCKDB = {"S": "VARCHAR", "N": "VARCHAR", "B": "VARCHAR", "BOOL": "BOOLEAN"}


@dataclass(frozen=True)
class ExportedTable:
    """One exportable table: its key in `OlapService(tables=...)`, and the attributes SQL can see."""

    key: str
    attributes: Shape
    description: str

    @property
    def raw(self) -> str:
        """The relation over the export's files (a Glue table in AWS, a DuckDB view locally)."""
        return f"raw_{self.key}"

    def glue_type(self) -> str:
        """The Glue (Hive) type of the `item` column.

        >>> DECLARED["counter_shards"].glue_type()
        'struct<pk:struct<s:string>,count:struct<n:string>,v:struct<n:string>>'
        """
        return _glue(self.attributes)

    def duckdb_type(self) -> str:
        """The DuckDB type of the `item` column (DuckDB matches struct fields case-insensitively).

        >>> DECLARED["counter_shards"].duckdb_type()[:34]
        'STRUCT("pk" STRUCT("S" VARCHAR), "'
        """
        return _duckdb(self.attributes)


def _glue(shape: Shape) -> str:
    fields = [f"{name.lower()}:{_glue_value(value)}" for name, value in shape.items()]  # Hive lowercases
    return f"struct<{','.join(fields)}>"


def _glue_value(value: str | Shape) -> str:
    if isinstance(value, str):
        return f"struct<{value.lower()}:{_GLUE[value]}>"
    return f"struct<m:{_glue(value)}>"


def _duckdb(shape: Shape) -> str:
    fields = [f'"{name}" {_duckdb_value(value)}' for name, value in shape.items()]
    return f"STRUCT({', '.join(fields)})"


def _duckdb_value(value: str | Shape) -> str:
    if isinstance(value, str):
        return f'STRUCT("{value}" {_DUCKDB[value]})'
    return f'STRUCT("M" {_duckdb(value)})'


# More than their keys: item shapes owned by each service (counters/table.py, ip_lookup/keys.py,
# models/devices/items.py, models/orders/keys.py); unit tests check them against items written by
# those modules.
IP_METADATA = ("country", "asn", "organization")  # `data` columns the views expose (CSV headers)
DECLARED: Mapping[str, ExportedTable] = MappingProxyType(
    {
        table.key: table
        for table in (
            ExportedTable(
                "counter_shards",
                {"pk": "S", "count": "N", "v": "N"},
                "shards of the write-sharded counters (pk `<name>#<n>`)",
            ),
            ExportedTable(
                "ip_ranges",
                {
                    "pk": "S",
                    "sk": "B",
                    "last": "B",
                    "start": "S",
                    "end": "S",
                    "origin": "S",
                    "gap": "BOOL",
                    "data": {column: "S" for column in IP_METADATA},
                    "version": "N",
                },
                "IP ranges of every loaded version, the alias item naming the live one",
            ),
            ExportedTable(
                "device_logs",
                {
                    "device_id": "S",
                    "level_with_created_at": "S",
                    "level": "S",
                    "created_at": "S",
                    "message": "S",
                    "operator": "S",
                    "escalated_to": "S",
                    "expires_at": "N",
                    "shard_id": "N",
                },
                "device logs (TTL `expires_at`)",
            ),
            ExportedTable(
                "orders",
                {
                    "OrderId": "S",
                    "CustomerId": "S",
                    "OrderDate": "S",
                    "Status": "S",
                    "Total": "N",
                    "Shard": "N",
                },
                "orders of seed 002",
            ),
        )
    }
)


def table_key(output_key: str) -> str:
    """The export key of a table from its stack output's name.

    >>> table_key("CounterShardsTableName"), table_key("InvoiceAndBillingTableName")
    ('counter_shards', 'invoice_and_billing')
    """
    name = output_key.removesuffix("TableName")
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


def key_attributes(definitions: KeyDefinitions) -> dict[str, str]:
    """Attribute name -> DynamoDB type of a table's key and index attributes.

    >>> key_attributes([{"AttributeName": "pk", "AttributeType": "S"}])
    {'pk': 'S'}
    """
    return {definition["AttributeName"]: definition["AttributeType"] for definition in definitions}


def exported_table(key: str, definitions: KeyDefinitions | None = None) -> ExportedTable:
    """Table `key` as SQL sees it: what its service declares, else its key and index attributes.

    >>> exported_table("orders").raw
    'raw_orders'
    >>> exported_table("forums", [{"AttributeName": "Name", "AttributeType": "S"}]).attributes
    {'Name': 'S'}
    """
    if key in DECLARED:
        return DECLARED[key]
    if definitions is None:
        raise KeyError(f"table {key!r} declares no columns: give its key definitions (DescribeTable)")
    return ExportedTable(key, key_attributes(definitions), f"table {key} (its key and index attributes)")
