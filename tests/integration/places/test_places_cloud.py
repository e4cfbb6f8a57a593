"""Places on the app's local cloud: real HTTP, the engine's maintainer Lambda on the real stream poller,
the CLI."""

from __future__ import annotations

import importlib
import json
import time
import uuid
from decimal import Decimal
from typing import Any

import pytest
import requests
from click.testing import CliRunner

from tatami.local.cloud import LocalCloud
from tatami.target import cloud_target
from tests.support.streams import stream_records
from tests.support.waiting import eventually
from zindex import IndexedTable
from zindex.dynamojson import to_item
from zindex.keys import index_keys

zindex_command = importlib.import_module("tatami.commands.zindex")  # the package exports the group
zindex_target = importlib.import_module("tatami.commands.zindex_target")
LONDON = {
    "name": "London",
    "latitude": 51.50853,
    "longitude": -0.12574,
    "population": 7556900,
    "country": "GB",
}
PARIS = {"name": "Paris", "latitude": 48.85341, "longitude": 2.3488, "population": 2138551, "country": "FR"}


@pytest.fixture(scope="module")
def cloud(app_cloud: LocalCloud) -> LocalCloud:
    return app_cloud


def declaration(cloud: LocalCloud) -> IndexedTable:
    return IndexedTable.from_json(cloud.outputs["PlacesZIndex"])


def table_name(cloud: LocalCloud) -> str:
    return cloud.outputs["PlacesTableName"]


def item(cloud: LocalCloud, key: str) -> dict[str, Any]:
    found = cloud.client("dynamodb").get_item(TableName=table_name(cloud), Key={"id": {"S": key}})
    return to_item(found.get("Item", {}))


def address_of(cloud: LocalCloud, key: str) -> bytes | None:
    found = item(cloud, key)
    return found.get("zaddr", None)


def expected_address(cloud: LocalCloud, place: dict[str, Any]) -> bytes:
    values = {k: Decimal(repr(v)) if isinstance(v, float) else v for k, v in place.items()}
    address: bytes = index_keys(declaration(cloud), {"id": "x", **values})["zaddr"]
    return address


def put(cloud: LocalCloud, key: str, place: dict[str, Any]) -> None:
    response = requests.put(f"{cloud.api_url}/places/{key}", json=place, timeout=30)
    assert response.status_code == 200, response.text


def search(cloud: LocalCloud, **query: Any) -> set[str]:
    response = requests.get(f"{cloud.api_url}/places/search", params={**query, "limit": 1000}, timeout=30)
    assert response.status_code == 200, response.text
    return {i["id"] for i in response.json()["items"]}


def records_for(cloud: LocalCloud, key: str) -> list[str]:
    """The event names of one item's stream records so far (the table's stream, read from the start)."""
    records = stream_records(cloud.client("dynamodb"), cloud.client("dynamodbstreams"), table_name(cloud))
    return [r["eventName"] for r in records if r["dynamodb"]["Keys"]["id"]["S"] == key]


def test_a_put_is_indexed_by_the_maintainer_and_found_by_search(cloud: LocalCloud) -> None:
    key = f"london-{uuid.uuid4().hex[:6]}"
    put(cloud, key, LONDON)
    assert eventually(lambda: address_of(cloud, key) == expected_address(cloud, LONDON))
    assert requests.get(f"{cloud.api_url}/places/{key}", timeout=30).json() == {"id": key, **LONDON}
    assert key in search(
        cloud, latitude_min=51, latitude_max=52, longitude_min=-1, longitude_max=1, population_min=1_000_000
    )
    assert key not in search(cloud, latitude_min=51, latitude_max=52, population_max=1_000_000)


def test_one_extra_write_per_indexed_change_none_for_others(cloud: LocalCloud) -> None:
    key = f"count-{uuid.uuid4().hex[:6]}"
    put(cloud, key, PARIS)
    assert eventually(lambda: records_for(cloud, key) == ["INSERT", "MODIFY"])  # user + maintainer
    put(cloud, key, {**PARIS, "name": "Paris, France"})  # no indexed attribute changed
    assert eventually(lambda: len(records_for(cloud, key)) == 3)
    time.sleep(2)  # give the maintainer every chance to (wrongly) write
    assert records_for(cloud, key) == ["INSERT", "MODIFY", "MODIFY"]
    put(cloud, key, {**PARIS, "population": 800_000})  # an indexed attribute changed: one more write
    assert eventually(lambda: len(records_for(cloud, key)) == 5)
    time.sleep(2)
    assert len(records_for(cloud, key)) == 5
    assert address_of(cloud, key) == expected_address(cloud, {**PARIS, "population": 800_000})


def test_back_to_back_updates_end_with_the_last_address(cloud: LocalCloud) -> None:
    key = f"race-{uuid.uuid4().hex[:6]}"
    put(cloud, key, LONDON)
    put(cloud, key, PARIS)  # before the maintainer has seen the first
    assert eventually(lambda: address_of(cloud, key) == expected_address(cloud, PARIS))
    time.sleep(2)
    assert address_of(cloud, key) == expected_address(cloud, PARIS)
    assert key in search(cloud, latitude_min=48, latitude_max=49.5, longitude_min=2, longitude_max=3)


def test_missing_dimension_leaves_and_rejoins_unencodable_stays_out(cloud: LocalCloud) -> None:
    key, bad = f"gone-{uuid.uuid4().hex[:6]}", f"bad-{uuid.uuid4().hex[:6]}"
    put(cloud, key, PARIS)
    assert eventually(lambda: address_of(cloud, key) is not None)
    client, name = cloud.client("dynamodb"), table_name(cloud)
    client.update_item(TableName=name, Key={"id": {"S": key}}, UpdateExpression="REMOVE population")
    assert eventually(lambda: address_of(cloud, key) is None)
    assert key not in search(cloud, latitude_min=48, latitude_max=49.5, longitude_min=2, longitude_max=3)
    client.update_item(
        TableName=name,
        Key={"id": {"S": key}},
        UpdateExpression="SET population = :p",
        ExpressionAttributeValues={":p": {"N": "5"}},
    )
    assert eventually(lambda: address_of(cloud, key) == expected_address(cloud, {**PARIS, "population": 5}))
    client.put_item(
        TableName=name,
        Item={
            "id": {"S": bad},
            "name": {"S": "Nowhere"},
            "latitude": {"S": "north"},
            "longitude": {"N": "2"},
            "population": {"N": "1"},
        },
    )
    assert eventually(lambda: any("unencodable" in line and bad in line for line in cloud.log.snapshot()))
    assert address_of(cloud, bad) is None


def test_the_cli_backfills_and_analyzes_the_local_cloud(
    cloud: LocalCloud, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    monkeypatch.setattr(zindex_target, "resolve_target", lambda local: cloud_target(cloud))
    checkpoint = tmp_path / "backfill.json"
    result = CliRunner().invoke(
        zindex_command.zindex, ["backfill", "--local", "--segments", "2", "--checkpoint", str(checkpoint)]
    )
    assert result.exit_code == 0, result.output
    assert "backfill places:" in result.output and "analyze places:" in result.output
    assert not checkpoint.exists()  # a finished backfill leaves nothing to resume
    checkpoint.write_text(json.dumps({"table": "other", "segments": 3, "keys": {"0": "done"}}))
    again = CliRunner().invoke(
        zindex_command.zindex, ["backfill", "--local", "--checkpoint", str(checkpoint)]
    )
    assert again.exit_code != 0 and "--resume" in again.output  # an interrupted run is never silently redone
    resumed = CliRunner().invoke(
        zindex_command.zindex, ["backfill", "--local", "--resume", "--checkpoint", str(checkpoint)]
    )
    assert resumed.exit_code != 0 and "--restart" in resumed.output  # another scan's checkpoint


def test_explain_analyze_and_advise_on_the_local_cloud(
    cloud: LocalCloud, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    monkeypatch.setattr(zindex_target, "resolve_target", lambda local: cloud_target(cloud))
    for n in range(30):
        put(cloud, f"explain-{n}", {**PARIS, "latitude": 40 + n / 10, "population": 1000 * n})
    assert eventually(lambda: address_of(cloud, "explain-29") is not None)
    CliRunner().invoke(zindex_command.zindex, ["analyze", "--local"])
    bounds = ["latitude=40..42", "longitude=2..3", "population=5000.."]
    explained = CliRunner().invoke(zindex_command.zindex, ["explain", "--local", "--analyze", *bounds])
    assert explained.exit_code == 0, explained.output
    lines = explained.output.splitlines()
    assert lines[0].startswith("EXPLAIN places:") and sum(line.startswith("*") for line in lines) == 1
    assert any("z-ranges on places-z" in line for line in lines) and any(
        "sorted on places" in line for line in lines
    )
    returned = next(line for line in lines if "items returned" in line)
    assert int(returned.split()[2].replace(",", "")) >= 16  # explain-5 .. explain-20, at least
    workload = tmp_path / "searches.txt"
    workload.write_text("# typical searches\nlatitude=40..41 longitude=2..3\npopulation=20000..\n" * 3)
    advised = CliRunner().invoke(zindex_command.zindex, ["advise", "--local", "--workload", str(workload)])
    assert advised.exit_code == 0, advised.output
    assert "ADVISE places: 6 searches" in advised.output and "1. " in advised.output
    bad = tmp_path / "bad.txt"
    bad.write_text("latitude=40..41\ncolour=red\n")
    refused = CliRunner().invoke(zindex_command.zindex, ["advise", "--local", "--workload", str(bad)])
    assert refused.exit_code != 0 and "bad.txt:2" in refused.output  # the line that is wrong


def test_a_search_says_it_plans_a_plan_and_how_far_behind_the_index_is(cloud: LocalCloud) -> None:
    response = requests.get(
        f"{cloud.api_url}/places/search", params={"population_min": 1_000_000, "explain": "true"}, timeout=30
    )
    body = response.json()
    assert response.status_code == 200 and body["stats"]["index_lag_seconds"] >= 0.0
    assert [row["chosen"] for row in body["plan"]].count(True) == 1
