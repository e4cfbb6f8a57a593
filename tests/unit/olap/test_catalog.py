"""The shared SQL: a view per exported table, named queries over the views only, in a portable subset,
and the WITH form Athena runs. Every view and query also runs in DuckDB over empty exports."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tatami.olap import duck
from tatami_functions.olap.catalog import named_queries, view_sql, views, views_used, with_views
from tatami_functions.olap.tables import DECLARED, exported_table

# DuckDB-only (or Trino-only) syntax the shared files must not use.
NOT_PORTABLE = [
    r"::",
    r"`",
    r"\bILIKE\b",
    r"\bQUALIFY\b",
    r"\bstruct_pack\b",
    r"\blist_\w+",
    r"\[\s*'",
    r'"\w+"\s*:',
]


@pytest.mark.parametrize("name", sorted(named_queries()))
def test_named_queries_read_views_only_and_describe_themselves(name: str) -> None:
    query = named_queries()[name]
    assert query.description and not query.description.startswith("-")
    assert views_used(query.sql), "a named query reads at least one view"
    assert not re.search(r"\braw_\w+", query.sql), "named queries read the views, never the raw exports"


GENERIC = exported_table(
    "things",
    [
        {"AttributeName": "Id", "AttributeType": "N"},
        {"AttributeName": "Name", "AttributeType": "S"},
        {"AttributeName": "blob", "AttributeType": "B"},
    ],
)


@pytest.mark.parametrize(
    "text", [*views().values(), view_sql(GENERIC), *(q.sql for q in named_queries().values())]
)
def test_the_sql_stays_in_the_common_subset_of_athena_and_duckdb(text: str) -> None:
    code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("--"))
    for pattern in NOT_PORTABLE:
        assert not re.search(pattern, code, re.IGNORECASE), pattern


def test_every_view_and_named_query_runs_in_duckdb_on_empty_exports() -> None:
    connection = duck.connect({})
    for table in DECLARED:
        assert duck.run(connection, f"SELECT * FROM {table}")[1] == []
    for query in named_queries().values():
        columns, rows = duck.run(connection, query.sql)
        assert columns and rows == []


def test_the_athena_form_defines_the_views_a_query_uses_and_runs_unchanged_in_duckdb() -> None:
    sql = named_queries()["orders_per_status"].sql
    athena = with_views(sql)
    assert athena.startswith("WITH orders AS (\nSELECT") and athena.endswith(sql)
    assert "counter_shards AS" not in athena
    connection = duck.connect({})  # the CTE shadows DuckDB's view of the same name: same answer
    assert duck.run(connection, athena) == duck.run(connection, sql)


def test_a_table_without_declared_columns_is_queried_by_its_key_attributes(tmp_path: Path) -> None:
    export = tmp_path / "part.json"
    item = {"Id": {"N": "7"}, "Name": {"S": "a"}, "blob": {"B": "AQI="}, "other": {"S": "not a key"}}
    export.write_text(json.dumps({"Item": item}) + "\n")
    connection = duck.connect({"things": [export]}, tables={"things": GENERIC})
    assert duck.run(connection, "SELECT * FROM things") == (["id", "name", "blob"], [(7.0, "a", "AQI=")])
    athena = with_views("SELECT name FROM things", {"things": GENERIC})
    assert athena.startswith("WITH things AS (") and duck.run(connection, athena)[1] == [("a",)]


def test_a_query_with_its_own_with_clause_gets_the_views_added_to_it() -> None:
    sql = "WITH big AS (SELECT * FROM orders WHERE total > 10) SELECT COUNT(*) FROM big"
    athena = with_views(sql)
    assert athena.startswith("WITH orders AS (") and "),\nbig AS (SELECT" in athena
    assert duck.run(duck.connect({}), athena)[1] == [(0,)]
