"""The app's export schedule fired on a local cloud: the export function scans every exported table
into the cloud's S3 (DynamoDB Local has no export API), and each export counts what a Scan counts."""

from __future__ import annotations

import json

import pytest

from infra.constants import OUTPUT_OLAP_BUCKET, OUTPUT_OLAP_TABLES
from tatami.local.cloud import LocalCloud
from tatami.olap.exports import latest_summary

pytestmark = pytest.mark.integration


def _count(cloud: LocalCloud, table: str) -> int:
    pages = cloud.client("dynamodb").get_paginator("scan").paginate(TableName=table, Select="COUNT")
    return sum(page["Count"] for page in pages)


def test_firing_the_schedule_exports_every_table(app_cloud: LocalCloud) -> None:
    tables = json.loads(app_cloud.outputs[OUTPUT_OLAP_TABLES])
    assert sorted(tables) == ["counter_shards", "device_logs", "ip_ranges", "orders"]
    shards = tables["counter_shards"].rsplit("/", 1)[-1]
    for shard in range(3):  # something to export besides what other tests left
        app_cloud.client("dynamodb").put_item(
            TableName=shards, Item={"pk": {"S": f"olap-cloud#{shard}"}, "count": {"N": "1"}, "v": {"N": "1"}}
        )
    (invocation,) = app_cloud.fire_rule("ExportSchedule")
    assert invocation.ok, invocation.error
    exports = {entry["table"]: entry for entry in invocation.result["exports"]}
    assert sorted(exports) == sorted(tables)
    bucket = app_cloud.outputs[OUTPUT_OLAP_BUCKET]
    for key, arn in tables.items():
        summary = latest_summary(app_cloud.client("s3"), bucket, f"exports/{key}")
        assert summary is not None and summary["exportArn"] == exports[key]["export_arn"]
        assert summary["tableArn"] == arn
        assert summary["itemCount"] == exports[key]["items"] == _count(app_cloud, arn.rsplit("/", 1)[-1])
    assert exports["counter_shards"]["items"] >= 3
