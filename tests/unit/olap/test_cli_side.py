"""The CLI side without a cloud: Athena runs the shared SQL with its views in front, results print."""

from __future__ import annotations

from decimal import Decimal

import boto3
from botocore.stub import Stubber

from tatami.olap import athena
from tatami.olap.render import render
from tatami_functions.olap.catalog import named_queries, with_views


def test_athena_runs_the_named_query_with_its_views_in_the_workgroup() -> None:
    client = boto3.client("athena", region_name="us-east-1", aws_access_key_id="k", aws_secret_access_key="s")
    sql = named_queries()["orders_per_status"].sql
    with Stubber(client) as stubber:
        stubber.add_response(
            "start_query_execution",
            {"QueryExecutionId": "q1"},
            {
                "QueryString": with_views(sql),
                "QueryExecutionContext": {"Database": "tatami_olap"},
                "WorkGroup": "tatami-olap",
            },
        )
        for state in ("RUNNING", "SUCCEEDED"):
            stubber.add_response("get_query_execution", {"QueryExecution": {"Status": {"State": state}}})
        header = {"Data": [{"VarCharValue": "status"}, {"VarCharValue": "orders"}]}
        row = {"Data": [{"VarCharValue": "PENDING"}, {"VarCharValue": "2"}]}
        metadata = {
            "ColumnInfo": [{"Name": "status", "Type": "varchar"}, {"Name": "orders", "Type": "bigint"}]
        }
        stubber.add_response(
            "get_query_results",
            {"ResultSet": {"Rows": [header, row], "ResultSetMetadata": metadata}},
            {"QueryExecutionId": "q1"},
        )
        result = athena.run(client, sql, "tatami_olap", "tatami-olap", poll=0)
    assert result == (["status", "orders"], [("PENDING", "2")])


def test_a_failed_athena_query_says_why() -> None:
    client = boto3.client("athena", region_name="us-east-1", aws_access_key_id="k", aws_secret_access_key="s")
    with Stubber(client) as stubber:
        stubber.add_response("start_query_execution", {"QueryExecutionId": "q2"})
        status = {"State": "FAILED", "StateChangeReason": "COLUMN_NOT_FOUND: nope"}
        stubber.add_response("get_query_execution", {"QueryExecution": {"Status": status}})
        try:
            athena.run(client, "SELECT nope FROM orders", "db", "wg", poll=0)
        except athena.AthenaQueryError as exc:
            assert "q2 FAILED: COLUMN_NOT_FOUND: nope" in str(exc)
        else:
            raise AssertionError("a failed query must raise")


def test_results_print_as_a_table_csv_or_json_lines() -> None:
    columns, rows = (
        ["status", "amount", "note"],
        [("PENDING", Decimal("15.00"), None), ("ORDERED", Decimal("1.25"), "x")],
    )
    table = render(columns, rows).splitlines()
    assert table[0] == "status  | amount | note" and table[2] == "PENDING |  15.00 | NULL"
    assert table[-1] == "(2 rows)"
    assert render(columns, rows, "csv").splitlines()[1] == "PENDING,15.00,"
    assert (
        render(columns, rows, "json").splitlines()[0]
        == '{"status": "PENDING", "amount": "15.00", "note": null}'
    )
