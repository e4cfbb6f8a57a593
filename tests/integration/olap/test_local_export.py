"""DynamoDB's export API as the local cloud answers it (`tatami.local.engines.exports`), over
DynamoDB Local and moto S3, called as the export function calls it (`run_aws`): counts equal a
Scan's, the layout is AWS's, DescribeExport knows every export, a retried request starts nothing
twice, the named queries answer right through DuckDB, and the two commands work end to end."""

from __future__ import annotations

import base64
import gzip
import hashlib
import importlib
import json
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tatami.cli import main
from tatami.commands.export import settings_of
from tatami.local.engines import exports as local_exports
from tatami.olap import duck
from tatami.olap.exports import latest_summary
from tatami_functions.olap.catalog import named_queries
from tatami_functions.olap.exceptions import ExportError
from tatami_functions.olap.exports import COMPLETED, FAILED
from tatami_functions.olap.layout import export_id_of
from tatami_functions.olap.repository import OlapRepository
from tatami_functions.olap.service import ExportOutcome, run_aws
from tests.integration.olap.conftest import World
from tests.integration.olap.known_data import EXPECTED

pytestmark = pytest.mark.integration
export_command = importlib.import_module("tatami.commands.export")
olap_command = importlib.import_module("tatami.commands.olap")


def olap_repository(world: World) -> OlapRepository:
    """The export function's repositories, on a DynamoDB client the local stand-in answers."""
    dynamodb = local_exports.attach(world.client("dynamodb"), world.client, segments=3)
    return OlapRepository.of(dynamodb, world.client("s3"), world.client("glue"))


@pytest.fixture(scope="module")
def exported(world: World) -> dict[str, ExportOutcome]:
    settings = settings_of(world.target)
    outcomes = run_aws(settings, olap_repository(world), kind="full", seed="olap-test")
    assert all(outcome.action == "full" for outcome in outcomes), outcomes
    return {outcome.table: outcome for outcome in outcomes}


@pytest.fixture
def cli(world: World, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> World:
    for module in (export_command, olap_command):
        monkeypatch.setattr(module, "resolve_target", lambda local: world.target)
    monkeypatch.setenv("TATAMI_LOCAL_DIR", str(tmp_path))  # the export cache goes under it
    return world


def _object(world: World, key: str) -> bytes:
    body: bytes = world.client("s3").get_object(Bucket=world.bucket, Key=key)["Body"].read()
    return body


def _summary(world: World, key: str) -> dict[str, Any]:
    summary = latest_summary(world.client("s3"), world.bucket, f"exports/{key}")
    assert summary is not None
    return summary


@pytest.mark.parametrize("key", ["counter_shards", "ip_ranges", "device_logs", "orders"])
def test_an_exports_item_count_equals_a_scans_count(
    exported: dict[str, ExportOutcome], world: World, key: str
) -> None:
    summary = _summary(world, key)
    files = [json.loads(line) for line in _object(world, summary["manifestFilesS3Key"]).decode().splitlines()]
    lines = []
    for entry in files:
        body = _object(world, entry["dataFileS3Key"])
        assert base64.b64decode(entry["md5Checksum"]) == hashlib.md5(body).digest()
        assert entry["etag"] == hashlib.md5(body).hexdigest()
        rows = gzip.decompress(body).decode().splitlines()
        assert len(rows) == entry["itemCount"]
        lines.extend(rows)
    assert summary["itemCount"] == len(lines) == world.scan_count(key)
    assert summary["exportArn"] == exported[key].export_arn
    assert lines, "the known data gives every table items"
    assert all(set(json.loads(line)) == {"Item"} for line in lines)


def test_the_layout_is_the_one_aws_writes(exported: dict[str, ExportOutcome], world: World) -> None:
    summary = _summary(world, "ip_ranges")
    folder = summary["manifestFilesS3Key"].rsplit("/", 1)[0]
    export_id = export_id_of(f"{folder}/manifest-summary.json")
    assert folder == f"exports/ip_ranges/AWSDynamoDB/{export_id}"
    listed = world.client("s3").list_objects_v2(Bucket=world.bucket, Prefix=f"{folder}/")["Contents"]
    names = {obj["Key"].removeprefix(f"{folder}/") for obj in listed}
    assert {"_started", "manifest-summary.json", "manifest-files.json", "manifest-files.checksum"} <= names
    assert all(name.endswith(".json.gz") for name in names if name.startswith("data/"))
    assert summary["exportType"] == "FULL_EXPORT" and summary["outputFormat"] == "DYNAMODB_JSON"
    assert summary["exportArn"] == f"{summary['tableArn']}/export/{export_id}"
    assert summary["startTime"] <= summary["endTime"]
    # Binary keys are base64 text, as in DynamoDB's JSON.
    data_key = json.loads(_object(world, summary["manifestFilesS3Key"]).decode().splitlines()[0])[
        "dataFileS3Key"
    ]
    item = json.loads(gzip.decompress(_object(world, data_key)).decode().splitlines()[0])["Item"]
    assert isinstance(item["sk"]["B"], str) and base64.b64decode(item["sk"]["B"])


def test_describe_export_knows_every_export_from_any_client(
    exported: dict[str, ExportOutcome], world: World
) -> None:
    for key, outcome in exported.items():
        assert outcome.export_arn is not None
        record = olap_repository(world).exports.describe(
            outcome.export_arn
        )  # a client of its own, as the CLI's
        assert record.status == COMPLETED and record.item_count == world.scan_count(key)
        assert record.manifest_key == _summary(world, key)["manifestFilesS3Key"].replace(
            "manifest-files.json", "manifest-summary.json"
        )
    with pytest.raises(ExportError, match="ExportNotFoundException"):
        olap_repository(world).exports.describe(f"{exported['orders'].export_arn}-gone")


def test_a_retried_request_starts_nothing_twice(exported: dict[str, ExportOutcome], world: World) -> None:
    settings = settings_of(world.target).select(["orders"])
    again = run_aws(settings, olap_repository(world), kind="full", seed="olap-test")
    assert [outcome.export_arn for outcome in again] == [exported["orders"].export_arn]


def test_an_export_whose_process_died_is_failed(exported: dict[str, ExportOutcome], world: World) -> None:
    """What a SIGKILLed `tatami export --local` leaves: IN_PROGRESS by a process that is gone."""
    arn = f"{exported['orders'].export_arn.rsplit('/', 1)[0]}/01700000000000-deadbeef"
    gone = subprocess.Popen(["true"])
    gone.wait()  # its pid now names no process
    registry = world.client("s3")
    body = {"ExportArn": arn, "ExportStatus": "IN_PROGRESS", "StartTime": "2024-01-01T00:00:00+00:00"}
    key = f"exports/{arn.rsplit('/', 1)[-1]}"
    registry.put_object(Bucket=local_exports.REGISTRY, Key=key, Body=json.dumps({**body, "pid": gone.pid}))
    record = olap_repository(world).exports.describe(arn)
    assert record.status == FAILED and record.failure == "the process making the export died"


def test_a_missing_table_is_the_engines_answer(world: World) -> None:
    missing = settings_of(world.target).tables["orders"] + "-gone"
    with pytest.raises(ExportError, match="ResourceNotFoundException"):
        olap_repository(world).exports.start_full(missing, world.bucket, "exports/gone", "gone-1")


def test_incremental_exports_are_refused_clearly(world: World) -> None:
    settings = settings_of(world.target)
    now = datetime.now(UTC)
    with pytest.raises(ExportError, match="local exports are full exports"):
        olap_repository(world).exports.start_incremental(
            settings.tables["orders"], world.bucket, "exports/orders", "t", now - timedelta(hours=1), now
        )


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_named_queries_answer_right_through_duckdb(
    exported: dict[str, ExportOutcome], world: World, tmp_path: Path, name: str
) -> None:
    fetched = olap_command.fetch_latest(world.target, tmp_path)
    connection = duck.connect({table: export.paths for table, export in fetched.items()})
    _, rows = duck.run(connection, named_queries()[name].sql)
    assert rows == EXPECTED[name]


def test_every_named_query_has_an_expected_answer() -> None:
    assert sorted(EXPECTED) == sorted(named_queries())


def test_export_and_olap_commands_end_to_end(cli: World) -> None:
    exported = CliRunner().invoke(main, ["export", "--local", "--table", "orders", "--no-progress"])
    assert exported.exit_code == 0, exported.output
    assert exported.output.startswith("orders: full (asked for); 4 items in ")
    answered = CliRunner().invoke(
        main, ["olap", "--local", "--named", "orders_per_status", "--format", "csv"]
    )
    assert answered.exit_code == 0, answered.output
    assert answered.stdout.splitlines() == [
        "status,orders,amount,latest_order",
        "DELIVERED,1,100.00,2024-04-01T00:00:00.000Z",
        "ORDERED,1,1.25,2024-05-02T00:00:00.000Z",
        "PENDING,2,15.00,2024-05-03T00:00:00.000Z",
    ]
    assert "orders: export " in answered.stderr and "4 items" in answered.stderr
    free = CliRunner().invoke(
        main, ["olap", "--local", "SELECT count(*) AS n FROM device_logs WHERE level = 'INFO'"]
    )
    assert free.exit_code == 0 and free.stdout.splitlines()[2].strip() == "3", free.output


def test_bad_sql_is_a_clear_error(cli: World) -> None:
    bad = CliRunner().invoke(main, ["olap", "--local", "SELECT nope FROM orders"])
    assert bad.exit_code == 1 and "DuckDB:" in bad.output and "nope" in bad.output
    neither = CliRunner().invoke(main, ["olap", "--local"])
    assert neither.exit_code == 2 and "either SQL or --named" in neither.output
