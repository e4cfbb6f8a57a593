"""The export layout: DynamoDB JSON lines, manifest lines and the summary's fields as AWS writes them."""

from __future__ import annotations

import base64
import doctest
import json
from datetime import UTC, datetime
from types import ModuleType

import pytest

from tatami_functions.olap import catalog, exports, layout, schedule, service, settings, tables
from tatami_functions.olap.layout import DataFile, Summary, item_line, new_export_id, newest

# The fields of a full export's manifest-summary.json (AWS documentation, "export output format").
AWS_SUMMARY_FIELDS = {
    "version",
    "exportArn",
    "startTime",
    "endTime",
    "tableArn",
    "tableId",
    "exportTime",
    "s3Bucket",
    "s3Prefix",
    "s3SseAlgorithm",
    "s3SseKmsKeyId",
    "manifestFilesS3Key",
    "billedSizeBytes",
    "itemCount",
    "outputFormat",
    "exportType",
}


def test_item_lines_are_dynamodb_json_with_base64_binaries_at_any_depth() -> None:
    item = {
        "pk": {"S": "日本"},
        "n": {"N": "1.5"},
        "b": {"B": b"\x00\xff"},
        "bs": {"BS": [b"\x01"]},
        "m": {"M": {"inner": {"L": [{"B": b"\x02"}, {"NULL": True}]}}},
    }
    line = item_line(item)
    assert line.endswith("\n") and "\n" not in line[:-1]
    decoded = json.loads(line)["Item"]
    assert decoded["pk"] == {"S": "日本"} and decoded["b"] == {"B": base64.b64encode(b"\x00\xff").decode()}
    assert decoded["bs"] == {"BS": ["AQ=="]} and decoded["m"]["M"]["inner"]["L"][0] == {"B": "Ag=="}


def test_manifest_lines_carry_count_md5_etag_and_key() -> None:
    entry = json.loads(DataFile("e/data/x.json.gz", 7, bytes(range(16))).manifest_line())
    assert entry == {
        "itemCount": 7,
        "md5Checksum": base64.b64encode(bytes(range(16))).decode(),
        "etag": bytes(range(16)).hex(),
        "dataFileS3Key": "e/data/x.json.gz",
    }


def test_the_summary_has_exactly_the_fields_aws_writes() -> None:
    moment = datetime(2024, 5, 1, tzinfo=UTC)
    files = (DataFile("k1", 2, bytes(16)), DataFile("k2", 3, bytes(16)))
    summary = Summary("arn:t/export/1", "arn:t", "b", "exports/t", moment, moment, files, 10)
    document = summary.document("exports/t/AWSDynamoDB/1/manifest-files.json")
    assert set(document) == AWS_SUMMARY_FIELDS
    assert document["itemCount"] == 5 and document["exportType"] == "FULL_EXPORT"
    assert document["startTime"] == "2024-05-01T00:00:00.000Z"


def test_export_ids_sort_by_start_time_and_the_newest_full_export_wins() -> None:
    assert new_export_id(1_000.0) < new_export_id(2_000.0)
    summaries = [
        {"exportType": "FULL_EXPORT", "exportTime": "2024-05-01", "endTime": "a"},
        {"exportType": "INCREMENTAL_EXPORT", "exportTime": "2024-05-03", "endTime": "a"},
        {"exportType": "FULL_EXPORT", "exportTime": "2024-05-02", "endTime": "a"},
    ]
    assert newest(summaries) == summaries[2] and newest([]) is None


@pytest.mark.parametrize(
    "module", [layout, tables, catalog, schedule, exports, service, settings], ids=lambda m: m.__name__
)
def test_examples(module: ModuleType) -> None:
    assert doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed == 0
