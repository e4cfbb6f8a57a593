"""The SQL both engines run: one view per exported table and the named queries, read from .sql files.

`views/<table>.sql` turns `raw_<table>` (the export's DynamoDB JSON, one `item` struct per line)
into plain columns; `queries/<name>.sql` answer questions over those views. Every file is written in
the common subset of Athena (Trino) and DuckDB SQL. DuckDB gets real views; Athena gets the views a
query uses as a `WITH` clause in front of it (`with_views`), so the named queries the CDK app creates
need no view objects in Glue. Pure: the CDK app, the export function and the CLI all import it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from olap.tables import TABLES

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
def views() -> dict[str, str]:
    """View name -> its SELECT (comments kept), one per exported table.

    >>> sorted(views()) == sorted(TABLES)
    True
    """
    found = {path.stem: path.read_text().strip() for path in sorted(VIEWS_DIR.glob("*.sql"))}
    if set(found) != set(TABLES):
        raise RuntimeError(f"views/{sorted(found)} must match the exported tables {sorted(TABLES)}")
    return found


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


def named_query(name: str) -> NamedQuery:
    """The named query `name`, or a `KeyError` listing the names there are."""
    try:
        return named_queries()[name]
    except KeyError:
        raise KeyError(f"no named query {name!r}; there are: {', '.join(named_queries())}") from None


def views_used(sql: str) -> list[str]:
    """The views `sql` mentions (as whole words, any case), in table order.

    >>> views_used("SELECT * FROM orders JOIN device_logs USING (x)")
    ['device_logs', 'orders']
    """
    return [name for name in views() if re.search(rf"\b{name}\b", sql, re.IGNORECASE)]


def with_views(sql: str) -> str:
    """`sql` with the views it uses defined in front of it, for engines without the views (Athena).

    A query that starts with its own WITH keeps it: the views join its list.

    >>> with_views("SELECT 1")
    'SELECT 1'
    >>> with_views("SELECT COUNT(*) FROM orders").startswith("WITH orders AS (")
    True
    """
    used = views_used(sql)
    if not used:
        return sql
    definitions = ",\n".join(f"{name} AS (\n{_strip_comments(views()[name])}\n)" for name in used)
    own = _LEADING_WITH.match(sql)
    if own:
        return f"WITH {definitions},\n{sql[own.end() :]}"
    return f"WITH {definitions}\n{sql}"


def _strip_comments(sql: str) -> str:
    return "\n".join(line for line in sql.splitlines() if not line.lstrip().startswith("--"))
