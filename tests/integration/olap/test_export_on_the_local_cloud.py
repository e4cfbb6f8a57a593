"""Every table of the app with point-in-time recovery, walked from the synthesized template, is
exported by the app's export schedule fired on a local cloud (the function calls DynamoDB's export
API, which the local cloud answers with a scan into its S3, under the function's IAM), and is
queryable with `tatami olap --local` under a view named after it. Fired again, the schedule finds
every export (DescribeExport) and points each Glue table at its newest one."""

from __future__ import annotations

import contextlib
import importlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tatami.local.cloud import LocalCloud
from tatami.olap.exports import latest_summary
from tatami.target import cloud_target
from tatami_functions.olap.tables import DECLARED, table_key
from tatami_functions.stack_outputs import OUTPUT_OLAP_BUCKET, OUTPUT_OLAP_DATABASE, OUTPUT_OLAP_TABLES

pytestmark = pytest.mark.integration
olap_command = importlib.import_module("tatami.commands.olap")  # the package exports the command


def _value(kind: str, n: int) -> dict[str, Any]:
    return {"S": {"S": f"olap-walk-{n}"}, "N": {"N": str(n)}, "B": {"B": bytes([n])}}[kind]


def _template(cloud: LocalCloud) -> dict[str, Any]:
    return json.loads((cloud.config.cdk_out / "Tatami.template.json").read_text())


def _tables_with_pitr(template: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Export key -> the table's properties, for every table whose replicas all keep PITR."""
    names = {
        output["Value"]["Ref"]: key
        for key, output in template["Outputs"].items()
        if key.endswith("TableName") and isinstance(output["Value"], dict) and "Ref" in output["Value"]
    }
    found = {}
    for logical_id, resource in template["Resources"].items():
        props = resource.get("Properties", {})
        if resource["Type"] != "AWS::DynamoDB::GlobalTable":
            continue
        if all(
            r["PointInTimeRecoverySpecification"]["PointInTimeRecoveryEnabled"] for r in props["Replicas"]
        ):
            found[table_key(names[logical_id])] = props
    return found


def _count(cloud: LocalCloud, table: str) -> int:
    pages = cloud.client("dynamodb").get_paginator("scan").paginate(TableName=table, Select="COUNT")
    return sum(page["Count"] for page in pages)


@contextlib.contextmanager
def _a_few_written(cloud: LocalCloud, tables: dict[str, dict[str, Any]]) -> Iterator[None]:
    """Two items keyed by the template's key schema in each table no stream consumer reads, removed
    afterwards: the session's other suites read these tables too (the log replica must equal its source)."""
    client, written = cloud.client("dynamodb"), list[tuple[str, dict[str, Any]]]()
    try:
        for table, props in tables.items():
            if props.get("StreamSpecification"):
                continue  # a consumer would process made-up items: these tables export what other tests left
            types = {d["AttributeName"]: d["AttributeType"] for d in props["AttributeDefinitions"]}
            for n in range(2):
                key = {k["AttributeName"]: _value(types[k["AttributeName"]], n) for k in props["KeySchema"]}
                if "Item" not in client.get_item(TableName=table, Key=key):
                    client.put_item(TableName=table, Item=key)
                    written.append((table, key))
        yield
    finally:
        for table, key in written:
            client.delete_item(TableName=table, Key=key)


def test_every_table_with_pitr_exports_and_is_queryable_under_its_name(
    app_cloud: LocalCloud, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    walked = _tables_with_pitr(_template(app_cloud))
    exported = json.loads(app_cloud.outputs[OUTPUT_OLAP_TABLES])
    assert sorted(exported) == sorted(walked) and set(DECLARED) <= set(exported)
    names = {exported[key].rsplit("/", 1)[-1]: props for key, props in walked.items()}
    with _a_few_written(app_cloud, names):
        _exports_hold(app_cloud, walked, exported, monkeypatch, tmp_path)


def _exports_hold(
    app_cloud: LocalCloud,
    walked: dict[str, dict[str, Any]],
    exported: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    (invocation,) = app_cloud.fire_rule("ExportSchedule")
    assert invocation.ok, invocation.error
    exports = {entry["table"]: entry for entry in invocation.result["exports"]}
    assert sorted(exports) == sorted(walked)
    bucket = app_cloud.outputs[OUTPUT_OLAP_BUCKET]
    monkeypatch.setattr(olap_command, "resolve_target", lambda local: cloud_target(app_cloud))
    counts = {}
    for key, arn in exported.items():
        summary = latest_summary(app_cloud.client("s3"), bucket, f"exports/{key}")
        assert summary is not None and summary["exportArn"] == exports[key]["export_arn"]
        counts[key] = _count(app_cloud, arn.rsplit("/", 1)[-1])
        assert summary["itemCount"] == counts[key]
    assert sum(counts.values()) > 0
    (again,) = app_cloud.fire_rule("ExportSchedule")
    assert again.ok, again.error
    database, glue = app_cloud.outputs[OUTPUT_OLAP_DATABASE], app_cloud.client("glue")
    for entry in again.result["exports"]:
        assert entry["action"] == "skip", entry  # up to date: the export of a moment ago is found
        location = glue.get_table(DatabaseName=database, Name=f"raw_{entry['table']}")["Table"]
        assert location["StorageDescriptor"]["Location"] == entry["published"]
        assert entry["published"].startswith(f"s3://{bucket}/exports/{entry['table']}/AWSDynamoDB/")
    every_view = " UNION ALL ".join(
        f"SELECT '{key}' AS view, (SELECT COUNT(*) FROM raw_{key}) AS exported, COUNT(*) AS shown FROM {key}"
        for key in exported
    )
    result = CliRunner().invoke(
        olap_command.olap, ["--local", "--format", "json", "--cache-dir", str(tmp_path), every_view]
    )
    assert result.exit_code == 0, result.output
    rows = {row["view"]: row for row in map(json.loads, result.stdout.splitlines())}
    assert {key: row["exported"] for key, row in rows.items()} == counts
    for key, row in rows.items():  # declared views may leave rows out (ip_ranges: the live dataset only)
        assert row["shown"] <= row["exported"] if key in DECLARED else row["shown"] == row["exported"], key
