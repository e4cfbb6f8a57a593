"""The SQL both engines run: one view per exported table and the named queries, read from .sql files.

`views/<table>.sql` turns `raw_<table>` (the export's DynamoDB JSON, one `item` struct per line)
into plain columns for a table whose service declares its items (`olap.tables.DECLARED`); any other
table's view is written here, one column per key attribute (numbers as DOUBLE). `queries/<name>.sql`
answer questions over those views. Every file is written in the common subset of Athena (Trino) and
DuckDB SQL. DuckDB gets real views; Athena gets the views a
query uses as a `WITH` clause in front of it (`with_views`), so the named queries the CDK app creates
need no view objects in Glue. Pure: the CDK app, the export function and the CLI all import it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tatami_functions.olap.tables import DECLARED, ExportedTable

HERE = Path(__file__).resolve().parent
VIEWS_DIR = HERE / "views"
QUERIES_DIR = HERE / "queries"
_LEADING_WITH = re.compile(r"^\s*WITH\s+(?!RECURSIVE\b)", re.IGNORECASE)


@dataclass(frozen=True)
class NamedQuery:
    """A question with a name: `description` is the file's leading comment, `sql` the whole file."""

    name: str
    description: str
    sql: str


def _description(sql: str) -> str:
    lines = [line.removeprefix("--").strip() for line in sql.splitlines() if line.startswith("--")]
    return " ".join(lines)


@cache
def _view_files() -> dict[str, str]:
    found = {path.stem: path.read_text().strip() for path in sorted(VIEWS_DIR.glob("*.sql"))}
    if set(found) != set(DECLARED):
        raise RuntimeError(f"views/{sorted(found)} must match the declared tables {sorted(DECLARED)}")
    return found


def view_sql(table: ExportedTable) -> str:
    """The SELECT of `table`'s view: its file for a declared table, else one column per key attribute.

    >>> from tatami_functions.olap.tables import exported_table
    >>> print(view_sql(exported_table("t", [{"AttributeName": "Id", "AttributeType": "N"}])))
    -- table t (its key and index attributes): one column per attribute, named in lower case.
    SELECT
      CAST(item."id".n AS DOUBLE) AS "id"
    FROM raw_t
    """
    if table.key in DECLARED:
        return _view_files()[table.key]
    columns = ",\n".join(f"  {_column(name, kind)}" for name, kind in table.attributes.items())
    header = f"-- {table.description}: one column per attribute, named in lower case."
    return f"{header}\nSELECT\n{columns}\nFROM {table.raw}"


def _column(name: object, kind: object) -> str:
    value = f'item."{str(name).lower()}".{str(kind).lower()}'  # Glue lowercases struct fields
    return f'{f"CAST({value} AS DOUBLE)" if kind == "N" else value} AS "{str(name).lower()}"'


def views(tables: Mapping[str, ExportedTable] = DECLARED) -> dict[str, str]:
    """View name -> its SELECT (comments kept), one per table (default: the declared ones).

    >>> sorted(views()) == sorted(DECLARED)
    True
    """
    return {key: view_sql(table) for key, table in tables.items()}


@cache
def named_queries() -> dict[str, NamedQuery]:
    """Name -> named query, in name order.

    >>> named_queries()["votes_per_counter"].description
    "Votes per counter: every shard's count summed, and how many shards took writes."
    """
    queries = {}
    for path in sorted(QUERIES_DIR.glob("*.sql")):
        sql = path.read_text().strip()
        queries[path.stem] = NamedQuery(path.stem, _description(sql), sql)
    return queries


def views_used(sql: str, tables: Mapping[str, ExportedTable] = DECLARED) -> list[str]:
    """The views of `tables` that `sql` mentions (as whole words, any case), in table order.

    >>> views_used("SELECT * FROM orders JOIN device_logs USING (x)")
    ['device_logs', 'orders']
    """
    return [name for name in tables if re.search(rf"\b{name}\b", sql, re.IGNORECASE)]


def with_views(sql: str, tables: Mapping[str, ExportedTable] = DECLARED) -> str:
    """`sql` with the views it uses defined in front of it, for engines without the views (Athena).

    A query that starts with its own WITH keeps it: the views join its list.

    >>> with_views("SELECT 1")
    'SELECT 1'
    >>> with_views("SELECT COUNT(*) FROM orders").startswith("WITH orders AS (")
    True
    """
    used = views_used(sql, tables)
    if not used:
        return sql
    definitions = ",\n".join(f"{name} AS (\n{_strip_comments(view_sql(tables[name]))}\n)" for name in used)
    own = _LEADING_WITH.match(sql)
    if own:
        return f"WITH {definitions},\n{sql[own.end() :]}"
    return f"WITH {definitions}\n{sql}"


def _strip_comments(sql: str) -> str:
    return "\n".join(line for line in sql.splitlines() if not line.lstrip().startswith("--"))
