"""The exported tables as analytics sees them: each attribute's DynamoDB type, per table key.

An export holds every attribute of every item, but Athena needs a schema: the Glue table's one
column `item` is a struct with one field per attribute, each a struct keyed by the DynamoDB type
(`{"S": ...}`, `{"N": ...}`), exactly as the export's DynamoDB JSON writes them. DuckDB reads the same
files with the same struct, so one view text works in both (`item.pk.s`). Attributes not listed are
still exported, just not visible to SQL; add them here to query them. Pure: the CDK app imports it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

Shape = Mapping[str, "str | Shape"]  # attribute -> "S" | "N" | "B" | "BOOL", or a map's own shape

_GLUE = {"S": "string", "N": "string", "B": "string", "BOOL": "boolean"}  # N and B stay text, as exported
_DUCKDB = {"S": "VARCHAR", "N": "VARCHAR", "B": "VARCHAR", "BOOL": "BOOLEAN"}


@dataclass(frozen=True)
class ExportedTable:
    """One exportable table: its key in `OlapExport(tables=...)`, and the attributes SQL can see."""

    key: str
    attributes: Shape
    description: str

    @property
    def raw(self) -> str:
        """The relation over the export's files (a Glue table in AWS, a DuckDB view locally)."""
        return f"raw_{self.key}"

    def glue_type(self) -> str:
        """The Glue (Hive) type of the `item` column.

        >>> TABLES["counter_shards"].glue_type()
        'struct<pk:struct<s:string>,count:struct<n:string>,v:struct<n:string>>'
        """
        return _glue(self.attributes)

    def duckdb_type(self) -> str:
        """The DuckDB type of the `item` column (DuckDB matches struct fields case-insensitively).

        >>> TABLES["counter_shards"].duckdb_type()[:34]
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


# Item shapes owned by each service (lambdas/counters/shards_table.py, lambdas/ip_lookup/keys.py,
# lambdas/models/devices/items.py, lambdas/models/orders/keys.py); unit tests check them against
# items written by those modules.
IP_METADATA = ("country", "asn", "organization")  # `data` columns the views expose (CSV headers)
TABLES: Mapping[str, ExportedTable] = MappingProxyType(
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


def exported_table(key: str) -> ExportedTable:
    """The description of table `key`, or a `KeyError` naming the known keys.

    >>> exported_table("orders").raw
    'raw_orders'
    """
    try:
        return TABLES[key]
    except KeyError:
        raise KeyError(f"unknown exported table {key!r}; known: {', '.join(TABLES)}") from None
