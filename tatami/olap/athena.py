"""Athena in AWS: a query (with the views it uses in front) in the stack's workgroup, waited for.

The workgroup enforces its encrypted result location, so the query names none.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from tatami_functions.olap.catalog import with_views
from tatami_functions.olap.tables import DECLARED, ExportedTable

Result = tuple[list[str], list[tuple[Any, ...]]]
_DONE = ("SUCCEEDED", "FAILED", "CANCELLED")


class AthenaQueryError(RuntimeError):
    """The query failed or was cancelled; the message carries Athena's reason."""


def run(
    athena: Any,
    sql: str,
    database: str,
    work_group: str,
    poll: float = 0.5,
    timeout: float = 900,
    tables: Mapping[str, ExportedTable] = DECLARED,
) -> Result:
    """Run `sql` and return its column names and rows (values as Athena's text).

    For example (not run as a doctest)::

        run(boto3.client("athena"), "SELECT 1", "tatami_olap", "tatami-olap")
        # -> (['_col0'], [('1',)])
    """
    started = athena.start_query_execution(
        QueryString=with_views(sql, tables),
        QueryExecutionContext={"Database": database},
        WorkGroup=work_group,
    )
    query_id = started["QueryExecutionId"]
    deadline = time.monotonic() + timeout
    while True:
        status = athena.get_query_execution(QueryExecutionId=query_id)["QueryExecution"]["Status"]
        if status["State"] in _DONE:
            break
        if time.monotonic() > deadline:
            athena.stop_query_execution(QueryExecutionId=query_id)
            raise AthenaQueryError(f"query {query_id} ran longer than {timeout:.0f} s and was stopped")
        time.sleep(poll)
    if status["State"] != "SUCCEEDED":
        raise AthenaQueryError(f"query {query_id} {status['State']}: {status.get('StateChangeReason', '')}")
    return _results(athena, query_id)


def _results(athena: Any, query_id: str) -> Result:
    columns: list[str] = []
    rows: list[tuple[Any, ...]] = []
    for page in athena.get_paginator("get_query_results").paginate(QueryExecutionId=query_id):
        if not columns:
            columns = [c["Name"] for c in page["ResultSet"]["ResultSetMetadata"]["ColumnInfo"]]
        for row in page["ResultSet"]["Rows"]:
            values = tuple(cell.get("VarCharValue") for cell in row["Data"])
            if values == tuple(columns) and not rows:
                continue  # the first row of a SELECT's results repeats the header
            rows.append(values)
    return columns, rows
