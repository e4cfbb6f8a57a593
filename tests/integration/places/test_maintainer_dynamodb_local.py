"""The maintainer against real writes and the real stream of DynamoDB Local, records fed to it by hand so
that interleavings are deterministic: one extra write per indexed change and none otherwise, a newer write
winning over a stale record, items leaving and rejoining the sparse index, and a resumable backfill."""

from __future__ import annotations

import random
from collections import Counter
from decimal import Decimal as D
from pathlib import Path
from typing import Any

import boto3
import pytest

from places import backfill, repository
from places.addressing import placement
from places.maintainer import Outcome, maintain_record
from places.settings import IndexSettings
from tatami.commands.zindex import run_backfill
from tatami.local.engines import LOCAL_CREDENTIALS
from tatami.local.streams import lambda_record
from tatami.scan import Checkpoint
from tests.functional.places.helpers import create_table, random_places, settings_for

V1 = {"id": "k", "name": "Kyoto", "latitude": D("35.0116"), "longitude": D("135.7681"), "population": 1475000}
V2 = {**V1, "latitude": D("34.6937"), "longitude": D("135.5023"), "population": 2691000}  # moved to Osaka


class Stream:
    """Reads the table's stream from the start, remembering what it already delivered."""

    def __init__(self, local: Any, settings: IndexSettings) -> None:
        tables = local.meta.client
        self.streams = boto3.client(
            "dynamodbstreams",
            endpoint_url=tables.meta.endpoint_url,
            region_name=tables.meta.region_name,
            **LOCAL_CREDENTIALS,
        )
        self.arn = tables.describe_table(TableName=settings.table)["Table"]["LatestStreamArn"]
        self.iterators: dict[str, str] = {}

    def new_records(self) -> list[dict[str, Any]]:
        shards = self.streams.describe_stream(StreamArn=self.arn)["StreamDescription"]["Shards"]
        records = []
        for shard in shards:
            iterator = (
                self.iterators.get(shard["ShardId"])
                or self.streams.get_shard_iterator(
                    StreamArn=self.arn, ShardId=shard["ShardId"], ShardIteratorType="TRIM_HORIZON"
                )["ShardIterator"]
            )
            response = self.streams.get_records(ShardIterator=iterator)
            records += [lambda_record(r, self.arn) for r in response["Records"]]
            self.iterators[shard["ShardId"]] = response["NextShardIterator"]
        return records


@pytest.fixture
def table(local: Any) -> tuple[IndexSettings, Stream]:
    settings = settings_for(f"places-maint-{random.randrange(10**6)}")
    create_table(local.meta.client, settings.table, stream=True)
    return settings, Stream(local, settings)


def drain(settings: IndexSettings, stream: Stream) -> list[tuple[str, Outcome]]:
    """Deliver records until the stream is quiet (the maintainer's own writes make records too)."""
    seen = []
    while records := stream.new_records():
        seen += [(r["eventName"], maintain_record(settings, r)) for r in records]
    return seen


def address(settings: IndexSettings, key: str) -> bytes | None:
    item = repository.table(settings.table).get_item(Key={"id": key}).get("Item", {})
    return repository.binary(item["zaddr"]) if "zaddr" in item else None


def test_one_extra_write_per_indexed_change_and_none_otherwise(table: tuple[IndexSettings, Stream]) -> None:
    settings, stream = table
    repository.put_place(settings, "k", V1)  # user write 1: new place
    assert drain(settings, stream) == [("INSERT", Outcome.WRITTEN), ("MODIFY", Outcome.UNCHANGED)]
    repository.put_place(settings, "k", {**V1, "name": "Kyōto"})  # not an indexed attribute
    assert drain(settings, stream) == [("MODIFY", Outcome.UNCHANGED)]
    repository.put_place(settings, "k", {**V1, "name": "Kyōto"})  # identical: DynamoDB streams nothing
    assert drain(settings, stream) == []
    repository.put_place(settings, "k", V2)  # indexed attributes changed
    assert drain(settings, stream) == [("MODIFY", Outcome.WRITTEN), ("MODIFY", Outcome.UNCHANGED)]
    assert address(settings, "k") == placement(settings, V2).address


def test_a_newer_user_write_wins_over_a_stale_record(table: tuple[IndexSettings, Stream]) -> None:
    settings, stream = table
    repository.put_place(settings, "k", V1)
    repository.put_place(settings, "k", V2)  # before the maintainer saw v1
    first, second = stream.new_records()
    assert maintain_record(settings, first) is Outcome.STALE  # condition: values still v1's -> fails
    assert address(settings, "k") is None
    assert maintain_record(settings, second) is Outcome.WRITTEN
    assert drain(settings, stream) == [("MODIFY", Outcome.UNCHANGED)]  # its own write-back: no loop
    assert address(settings, "k") == placement(settings, V2).address


def test_v1_processed_after_v2_was_written_but_before_its_record_still_ends_right(
    table: tuple[IndexSettings, Stream],
) -> None:
    settings, stream = table
    repository.put_place(settings, "k", V1)
    (record_v1,) = stream.new_records()
    repository.put_place(settings, "k", V2)
    assert maintain_record(settings, record_v1) is Outcome.STALE
    drain(settings, stream)
    assert address(settings, "k") == placement(settings, V2).address


def test_a_missing_dimension_leaves_the_index_and_rejoins_it(table: tuple[IndexSettings, Stream]) -> None:
    settings, stream = table
    repository.put_place(settings, "k", V1)
    drain(settings, stream)
    items = repository.table(settings.table)
    items.update_item(Key={"id": "k"}, UpdateExpression="REMOVE population")
    assert drain(settings, stream) == [("MODIFY", Outcome.REMOVED), ("MODIFY", Outcome.ABSENT)]
    assert address(settings, "k") is None
    items.update_item(
        Key={"id": "k"}, UpdateExpression="SET population = :p", ExpressionAttributeValues={":p": 1}
    )
    assert drain(settings, stream)[0] == ("MODIFY", Outcome.WRITTEN)
    assert address(settings, "k") == placement(settings, {**V1, "population": 1}).address


def test_backfill_resumes_from_its_checkpoint_and_is_idempotent(
    local: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = settings_for(f"places-backfill-{random.randrange(10**6)}")
    create_table(local.meta.client, settings.table)
    places = random_places(random.Random(5), 1200)
    repository.write_places(settings, places)  # written before the index existed: no addresses
    tables = local.meta.client  # the resource's client speaks Python values; the CLI's a plain client
    client = boto3.client(
        "dynamodb",
        endpoint_url=tables.meta.endpoint_url,
        region_name=tables.meta.region_name,
        **LOCAL_CREDENTIALS,
    )
    path = tmp_path / "backfill.json"
    index_page, pages = backfill.index_page, Counter[str]()

    def crash_on_the_fifth_page(settings: IndexSettings, items: list[dict[str, Any]]) -> Counter[str]:
        pages["seen"] += 1
        if pages["seen"] == 5:
            raise RuntimeError("the backfill crashed")
        return index_page(settings, items)

    monkeypatch.setattr(backfill, "index_page", crash_on_the_fifth_page)
    with pytest.raises(RuntimeError):
        run_backfill(client, settings, 3, Checkpoint.open(path, settings.table, 3), page_size=100)
    assert path.exists()
    monkeypatch.setattr(backfill, "index_page", index_page)
    _, outcomes = run_backfill(client, settings, 3, Checkpoint.open(path, settings.table, 3), page_size=100)
    assert outcomes == {"written": len(places)}  # each item written once across both runs
    assert not path.exists()  # a finished scan removes its checkpoint
    assert all(address(settings, p["id"]) == placement(settings, p).address for p in places[:50])
    _, again = run_backfill(client, settings, 2, Checkpoint.open(tmp_path / "again.json", settings.table, 2))
    assert again == {"unchanged": len(places)}
