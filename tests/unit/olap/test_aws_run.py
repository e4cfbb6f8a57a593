"""The AWS path against botocore's Stubber (requests are checked against the real API models):
which exports get described, the requests that start full and incremental exports, Glue publishing,
and a run where one table fails while the others go on."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import boto3
import pytest
from botocore.stub import ANY, Stubber

from tatami_functions.olap.repository import OlapRepository
from tatami_functions.olap.service import ExportOutcome, recent, run_aws
from tatami_functions.olap.settings import ExportSettings

NOW = datetime(2024, 5, 2, 12, 0, tzinfo=UTC)
TABLE = "arn:aws:dynamodb:us-east-1:123456789012:table/Orders"
FOLDER = "exports/orders/AWSDynamoDB/01714600000000-aaaaaaaa"


def _client(service: str) -> Any:
    return boto3.client(service, region_name="us-east-1", aws_access_key_id="k", aws_secret_access_key="s")


@pytest.fixture
def dynamodb() -> Iterator[tuple[Any, Stubber]]:
    client = _client("dynamodb")
    with Stubber(client) as stubber:
        yield client, stubber
        stubber.assert_no_pending_responses()


@pytest.fixture
def s3() -> Iterator[tuple[Any, Stubber]]:
    client = _client("s3")
    with Stubber(client) as stubber:
        yield client, stubber
        stubber.assert_no_pending_responses()


def _folders(stubber: Stubber, *ids: str) -> None:
    """The export folders in the bucket, as ListObjectsV2 with a delimiter gives them."""
    prefixes = [{"Prefix": f"exports/orders/AWSDynamoDB/{i}/"} for i in ids]
    expected = {"Bucket": "olap-bucket", "Prefix": "exports/orders/AWSDynamoDB/", "Delimiter": "/"}
    stubber.add_response("list_objects_v2", {"CommonPrefixes": prefixes, "IsTruncated": False}, expected)


@pytest.fixture
def glue() -> Iterator[tuple[Any, Stubber]]:
    client = _client("glue")
    with Stubber(client) as stubber:
        yield client, stubber
        stubber.assert_no_pending_responses()


def _description(export_id: str, kind: str, status: str, hours_ago: float) -> dict[str, Any]:
    description: dict[str, Any] = {
        "ExportArn": f"{TABLE}/export/{export_id}",
        "ExportStatus": status,
        "ExportType": kind,
        "ExportManifest": f"exports/orders/AWSDynamoDB/{export_id}/manifest-summary.json",
    }
    if kind == "FULL_EXPORT":
        description["ExportTime"] = NOW - timedelta(hours=hours_ago)
    else:
        description["IncrementalExportSpecification"] = {"ExportToTime": NOW - timedelta(hours=hours_ago)}
    return description


def test_only_the_exports_that_matter_are_described(
    dynamodb: tuple[Any, Stubber], s3: tuple[Any, Stubber]
) -> None:
    (client, stubber), (s3_client, s3_stubber) = dynamodb, s3
    ids = ["01714000000000-cccccccc", "01714500000000-bbbbbbbb", "01714600000000-aaaaaaaa"]
    _folders(s3_stubber, *ids)
    newest, full = (
        _description(ids[2], "INCREMENTAL_EXPORT", "COMPLETED", 1),
        _description(ids[1], "FULL_EXPORT", "COMPLETED", 5),
    )
    stubber.add_response("describe_export", {"ExportDescription": newest}, {"ExportArn": newest["ExportArn"]})
    stubber.add_response("describe_export", {"ExportDescription": full}, {"ExportArn": full["ExportArn"]})
    records = recent(OlapRepository.of(client, s3_client, None), TABLE, "olap-bucket", "exports/orders")
    # The oldest export is never described: a newer full one completed.
    assert [r.kind for r in records] == ["INCREMENTAL_EXPORT", "FULL_EXPORT"]
    assert records[1].data_folder == "exports/orders/AWSDynamoDB/01714500000000-bbbbbbbb/data/"


def _settings(**overrides: Any) -> ExportSettings:
    return ExportSettings({"orders": TABLE}, "olap-bucket", database="tatami_olap", **overrides)


def test_a_due_table_is_published_then_exported_fully(
    dynamodb: tuple[Any, Stubber], s3: tuple[Any, Stubber], glue: tuple[Any, Stubber]
) -> None:
    (client, stubber), (s3_client, s3_stubber), (glue_client, glue_stubber) = dynamodb, s3, glue
    done = _description("01714600000000-aaaaaaaa", "FULL_EXPORT", "COMPLETED", 25)
    _folders(s3_stubber, "01714600000000-aaaaaaaa")
    stubber.add_response("describe_export", {"ExportDescription": done})
    started = {**_description("01714700000000-dddddddd", "FULL_EXPORT", "IN_PROGRESS", 0)}
    request = {
        "TableArn": TABLE,
        "S3Bucket": "olap-bucket",
        "S3Prefix": "exports/orders",
        "S3SseAlgorithm": "AES256",
        "ExportFormat": "DYNAMODB_JSON",
        "ClientToken": ANY,
        "ExportType": "FULL_EXPORT",
    }
    stubber.add_response("export_table_to_point_in_time", {"ExportDescription": started}, request)
    table = {
        "Name": "raw_orders",
        "StorageDescriptor": {"Location": "s3://olap-bucket/exports/orders/unpublished/"},
    }
    glue_stubber.add_response(
        "get_table", {"Table": table}, {"DatabaseName": "tatami_olap", "Name": "raw_orders"}
    )
    location = f"s3://olap-bucket/{FOLDER}/data/"
    expected_input = {"Name": "raw_orders", "StorageDescriptor": {"Location": location}}
    glue_stubber.add_response(
        "update_table", {}, {"DatabaseName": "tatami_olap", "TableInput": expected_input}
    )
    (outcome,) = run_aws(
        _settings(), OlapRepository.of(client, s3_client, glue_client), now=NOW, seed="event-1"
    )
    assert outcome.action == "full" and outcome.published == location
    assert outcome.export_arn == started["ExportArn"] and "25.0 h" in outcome.reason


def test_an_incremental_export_covers_the_changes_since_the_newest_export(
    dynamodb: tuple[Any, Stubber], s3: tuple[Any, Stubber], glue: tuple[Any, Stubber]
) -> None:
    (client, stubber), (s3_client, s3_stubber), (glue_client, glue_stubber) = dynamodb, s3, glue
    done = _description("01714600000000-aaaaaaaa", "FULL_EXPORT", "COMPLETED", 2)
    _folders(s3_stubber, "01714600000000-aaaaaaaa")
    stubber.add_response("describe_export", {"ExportDescription": done})
    window = {
        "ExportFromTime": NOW - timedelta(hours=2),
        "ExportToTime": NOW,
        "ExportViewType": "NEW_AND_OLD_IMAGES",
    }
    started = _description("01714700000000-dddddddd", "INCREMENTAL_EXPORT", "IN_PROGRESS", 0)
    stubber.add_response(
        "export_table_to_point_in_time",
        {"ExportDescription": started},
        {
            "TableArn": TABLE,
            "S3Bucket": "olap-bucket",
            "S3Prefix": "exports/orders",
            "S3SseAlgorithm": "AES256",
            "ExportFormat": "DYNAMODB_JSON",
            "ClientToken": ANY,
            "ExportType": "INCREMENTAL_EXPORT",
            "IncrementalExportSpecification": window,
        },
    )
    location = f"s3://olap-bucket/{FOLDER}/data/"
    glue_stubber.add_response(
        "get_table", {"Table": {"Name": "raw_orders", "StorageDescriptor": {"Location": location}}}
    )
    (outcome,) = run_aws(
        _settings(), OlapRepository.of(client, s3_client, glue_client), kind="incremental", now=NOW
    )
    assert outcome.action == "incremental" and outcome.published is None  # already read by Athena


def test_a_failing_table_is_reported_and_does_not_stop_the_others(
    dynamodb: tuple[Any, Stubber], s3: tuple[Any, Stubber]
) -> None:
    (client, stubber), (s3_client, s3_stubber) = dynamodb, s3
    for table in ("orders", "device_logs"):
        s3_stubber.add_response(
            "list_objects_v2",
            {"IsTruncated": False},
            {"Bucket": "b", "Prefix": f"exports/{table}/AWSDynamoDB/", "Delimiter": "/"},
        )
    stubber.add_client_error(
        "export_table_to_point_in_time", "PointInTimeRecoveryUnavailableException", "PITR is not enabled"
    )
    stubber.add_response(
        "export_table_to_point_in_time",
        {"ExportDescription": _description("0171-e", "FULL_EXPORT", "IN_PROGRESS", 0)},
    )
    settings = ExportSettings({"orders": TABLE, "device_logs": TABLE.replace("Orders", "Logs")}, "b")
    failed, started = run_aws(settings, OlapRepository.of(client, s3_client, None), now=NOW)
    assert failed.action == "failed" and "point-in-time recovery is off" in failed.reason
    assert started.table == "device_logs" and started.action == "full"


def test_an_export_dynamodb_failed_since_the_run_before_is_counted_once(
    dynamodb: tuple[Any, Stubber], s3: tuple[Any, Stubber]
) -> None:
    """An export fails after ExportTableToPointInTime returned IN_PROGRESS: the next run counts it,
    the one after does not (its EndTime is older than the schedule's interval)."""
    (client, stubber), (s3_client, s3_stubber) = dynamodb, s3
    ids = ["01714600000000-aaaaaaaa", "01714700000000-bbbbbbbb"]
    full = _description(ids[0], "FULL_EXPORT", "COMPLETED", 20)
    failed = {**_description(ids[1], "FULL_EXPORT", "FAILED", 3), "EndTime": NOW - timedelta(minutes=40)}
    for now, counted in ((NOW, 1), (NOW + timedelta(hours=1), None)):
        _folders(s3_stubber, *ids)
        stubber.add_response("describe_export", {"ExportDescription": failed})
        stubber.add_response("describe_export", {"ExportDescription": full})
        settings = ExportSettings({"orders": TABLE}, "olap-bucket")  # no catalog: nothing to publish
        (outcome,) = run_aws(settings, OlapRepository.of(client, s3_client, None), now=now)
        assert (outcome.action, outcome.failed_later) == ("skip", counted)
        # The data analytics read is as old as the completed full export.
        assert outcome.age_seconds == (now - NOW + timedelta(hours=20)).total_seconds()
    assert (
        "1 export(s) failed since the previous run"
        in ExportOutcome("orders", "skip", "", failed_later=1).line()
    )
