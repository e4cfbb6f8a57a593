"""DuckDB over local exports: a `raw_<table>` table loaded from each export's files, and the shared views.

The raw tables read the data files with the same `item` struct type the Glue tables declare, so the view
files of lambdas/tatami_functions/olap/views run unchanged. Each export is parsed once, into DuckDB's
columnar memory, so every query after that costs milliseconds. A table without an export gets an empty
raw table: queries still run (on no rows) and the caller is told which tables had no export.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import duckdb

from tatami_functions.olap.catalog import view_sql
from tatami_functions.olap.tables import DECLARED, ExportedTable

Result = tuple[list[str], list[tuple[Any, ...]]]
Error = duckdb.Error  # what a bad query raises


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def raw_table_sql(exported: ExportedTable, paths: Sequence[Path]) -> str:
    """The CREATE TABLE of `raw_<table>` from `paths` (none: an empty view of the right type).

    >>> raw_table_sql(DECLARED["orders"], [])[:60]
    'CREATE OR REPLACE VIEW raw_orders AS SELECT CAST(NULL AS STR'
    """
    item_type = exported.duckdb_type()
    if not paths:
        return (
            f"CREATE OR REPLACE VIEW {exported.raw} AS SELECT CAST(NULL AS {item_type}) AS item WHERE false"
        )
    files = ", ".join(_literal(str(path)) for path in paths)
    return (
        f"CREATE OR REPLACE TABLE {exported.raw} AS SELECT Item AS item FROM read_json([{files}], "
        f"format = 'newline_delimited', columns = {{'Item': {_literal(item_type)}}})"
    )


def connect(
    files: Mapping[str, Sequence[Path]],
    threads: int | None = None,
    tables: Mapping[str, ExportedTable] = DECLARED,
) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB with a raw table and a view per table of `tables` (`files`: key -> data files).

    For example (not run as a doctest)::

        connect({}).sql("SELECT COUNT(*) FROM orders").fetchall()
        # -> [(0,)]
    """
    connection = duckdb.connect(":memory:")
    if threads:
        connection.execute(f"SET threads = {int(threads)}")
    for key, table in tables.items():
        connection.execute(raw_table_sql(table, files.get(key, ())))
        connection.execute(f"CREATE OR REPLACE VIEW {key} AS {view_sql(table)}")
    return connection


def run(connection: duckdb.DuckDBPyConnection, sql: str) -> Result:
    """Column names and rows of `sql`."""
    relation = connection.sql(sql)
    if relation is None:  # a statement without a result (SET, CREATE ...)
        return [], []
    return list(relation.columns), relation.fetchall()
