"""Places on the app's local cloud: real HTTP, the maintainer Lambda on the real stream poller, the CLI."""

from __future__ import annotations

import importlib
import json
import time
import uuid
from typing import Any

import boto3
import pytest
import requests
from click.testing import CliRunner

from places import repository
from places.addressing import placement
from tatami.local.cloud import LocalCloud
from tatami.local.engines import LOCAL_CREDENTIALS
from tatami.local.intrinsics import LOCAL_REGION
from tests.functional.places.helpers import settings_for
from tests.support.streams import stream_records
from tests.support.waiting import eventually

zindex_command = importlib.import_module("tatami.commands.zindex")  # the package exports the group
LONDON = {
    "name": "London",
    "latitude": 51.50853,
    "longitude": -0.12574,
    "population": 7556900,
    "country": "GB",
}
PARIS = {"name": "Paris", "latitude": 48.85341, "longitude": 2.3488, "population": 2138551, "country": "FR"}


@pytest.fixture(scope="module")
def cloud(app_cloud: LocalCloud) -> Any:
    saved = list(repository._resources)
    repository.use_resource(
        boto3.resource(
            "dynamodb",
            endpoint_url=app_cloud.dynamodb_endpoint,
            region_name=LOCAL_REGION,
            **LOCAL_CREDENTIALS,
        )
    )
    yield app_cloud
    repository._resources[:] = saved


def table_name(cloud: LocalCloud) -> str:
    return cloud.outputs["PlacesTableName"]


def item(cloud: LocalCloud, key: str) -> dict[str, Any]:
    return repository.table(table_name(cloud)).get_item(Key={"id": key}).get("Item", {})


def address_of(cloud: LocalCloud, key: str) -> bytes | None:
    found = item(cloud, key)
    return repository.binary(found["zaddr"]) if "zaddr" in found else None


def expected_address(cloud: LocalCloud, place: dict[str, Any]) -> bytes:
    return placement(
        settings_for(table_name(cloud)),
        {k: repository.as_number(v) if isinstance(v, float) else v for k, v in place.items()},
    ).address


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
    places = repository.table(table_name(cloud))
    places.update_item(Key={"id": key}, UpdateExpression="REMOVE population")  # a writer without it
    assert eventually(lambda: address_of(cloud, key) is None)
    assert key not in search(cloud, latitude_min=48, latitude_max=49.5, longitude_min=2, longitude_max=3)
    places.update_item(
        Key={"id": key}, UpdateExpression="SET population = :p", ExpressionAttributeValues={":p": 5}
    )
    assert eventually(lambda: address_of(cloud, key) == expected_address(cloud, {**PARIS, "population": 5}))
    places.put_item(Item={"id": bad, "name": "Nowhere", "latitude": "north", "longitude": 2, "population": 1})
    assert eventually(lambda: any("unencodable" in line and bad in line for line in cloud.log.lines))
    assert address_of(cloud, bad) is None


def test_the_cli_backfills_and_analyzes_the_local_cloud(
    cloud: LocalCloud, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    monkeypatch.setattr(zindex_command, "resolve_target", lambda local: cloud.target())
    checkpoint = tmp_path / "backfill.json"
    result = CliRunner().invoke(
        zindex_command.zindex, ["backfill", "--local", "--segments", "2", "--checkpoint", str(checkpoint)]
    )
    assert result.exit_code == 0, result.output
    assert "backfill places-z:" in result.output and "analyze places-z:" in result.output
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
