"""The maintainer against real writes and the real stream of DynamoDB Local, records fed to it by hand so
that interleavings are deterministic: one extra write per indexed change and none otherwise, a newer write
winning over a stale record, items leaving and rejoining the sparse indexes, a batch applied
concurrently, a batch that fails half-way and is redelivered, and a resumable backfill."""

from __future__ import annotations

import importlib
import random
import uuid
from collections import Counter
from decimal import Decimal as D
from pathlib import Path
from typing import Any

import pytest

from tatami.commands.zindex import run_backfill
from tatami.local.engines import processes as engines
from tatami.local.events.streams import lambda_record
from tatami.samples.places import write_places
from tatami.scan import Checkpoint
from tatami_functions.places.repository import PlacesRepository
from tests.support.zindex import create_table, places_on, random_places
from zindex import analyze
from zindex.dynamodb import IndexRepository
from zindex.dynamojson import to_item
from zindex.keys import index_keys
from zindex.maintainer import IndexOutcome, maintain

V1 = {"id": "k", "name": "Kyoto", "latitude": D("35.0116"), "longitude": D("135.7681"), "population": 1475000}
V2 = {**V1, "latitude": D("34.6937"), "longitude": D("135.5023"), "population": 2691000}  # moved to Osaka


class Stream:
    """Reads the table's stream from the start, remembering what it already delivered."""

    def __init__(self, client: Any, table: str) -> None:
        self.streams = engines.streams_client(client.meta.endpoint_url)
        self.arn = client.describe_table(TableName=table)["Table"]["LatestStreamArn"]
        self.iterators: dict[str, str] = {}

    def new_records(self) -> list[dict[str, Any]]:
        records = []
        for shard in self.streams.describe_stream(StreamArn=self.arn)["StreamDescription"]["Shards"]:
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
def table(client: Any) -> tuple[IndexRepository, PlacesRepository, Stream]:
    declaration = places_on(f"places-maint-{uuid.uuid4().hex[:8]}")
    create_table(client, declaration, stream=True)
    return (
        IndexRepository(declaration, client),
        PlacesRepository(declaration.table, client),
        Stream(client, declaration.table),
    )


def one(repository: IndexRepository, record: dict[str, Any]) -> IndexOutcome:
    result = maintain(repository, [record])
    assert not result.failed
    (outcome,) = [o for o, n in result.outcomes.items() if n and o != "superseded"]
    return IndexOutcome(outcome)


def drain(repository: IndexRepository, stream: Stream) -> list[tuple[str, IndexOutcome]]:
    """Deliver records one at a time until the stream is quiet (the maintainer's own writes make records)."""
    seen = []
    while records := stream.new_records():
        seen += [(r["eventName"], one(repository, r)) for r in records]
    return seen


def keys_of(repository: IndexRepository, key: str) -> dict[str, Any]:
    item = to_item(
        repository.client.get_item(TableName=repository.table.table, Key={"id": {"S": key}}).get("Item", {})
    )
    return {name: item[name] for name in repository.table.written if name in item}


def test_one_extra_write_per_indexed_change_and_none_otherwise(table: Any) -> None:
    repository, places, stream = table
    places.put("k", V1)  # user write 1: new place
    assert drain(repository, stream) == [("INSERT", IndexOutcome.WRITTEN), ("MODIFY", IndexOutcome.UNCHANGED)]
    places.put("k", {**V1, "name": "Kyōto"})  # not an indexed attribute
    assert drain(repository, stream) == [("MODIFY", IndexOutcome.UNCHANGED)]
    places.put("k", {**V1, "name": "Kyōto"})  # identical: DynamoDB streams nothing
    assert drain(repository, stream) == []
    places.put("k", V2)  # indexed attributes changed
    assert drain(repository, stream) == [("MODIFY", IndexOutcome.WRITTEN), ("MODIFY", IndexOutcome.UNCHANGED)]
    assert keys_of(repository, "k") == index_keys(repository.table, V2)


def test_a_newer_user_write_wins_over_a_stale_record(table: Any) -> None:
    repository, places, stream = table
    places.put("k", V1)
    places.put("k", V2)  # before the maintainer saw v1
    first, second = stream.new_records()
    assert one(repository, first) is IndexOutcome.STALE  # condition: values still v1's -> fails
    assert keys_of(repository, "k") == {}
    assert one(repository, second) is IndexOutcome.WRITTEN
    assert drain(repository, stream) == [("MODIFY", IndexOutcome.UNCHANGED)]  # its own write-back: no loop
    assert keys_of(repository, "k") == index_keys(repository.table, V2)


def test_a_missing_attribute_leaves_every_index_and_rejoins_them(table: Any) -> None:
    repository, places, stream = table
    places.put("k", V1)
    drain(repository, stream)
    client, name = repository.client, repository.table.table
    client.update_item(TableName=name, Key={"id": {"S": "k"}}, UpdateExpression="REMOVE population")
    assert drain(repository, stream) == [("MODIFY", IndexOutcome.REMOVED), ("MODIFY", IndexOutcome.ABSENT)]
    assert keys_of(repository, "k") == {}
    client.update_item(
        TableName=name,
        Key={"id": {"S": "k"}},
        UpdateExpression="SET population = :p",
        ExpressionAttributeValues={":p": {"N": "1"}},
    )
    assert drain(repository, stream)[0] == ("MODIFY", IndexOutcome.WRITTEN)
    assert keys_of(repository, "k") == index_keys(repository.table, {**V1, "population": 1})


def _every_item_has_exactly_its_current_keys(repository: IndexRepository) -> None:
    """Invariant: every item holding every attribute carries the index keys of its current values;
    no other item carries any."""
    client, table = repository.client, repository.table
    for raw in client.scan(TableName=table.table)["Items"]:
        item = to_item(raw)
        stored = {name: item[name] for name in table.written if name in item}
        expected = (
            index_keys(table, item) if all(item.get(a.name) is not None for a in table.attributes) else {}
        )
        assert stored == expected, item["id"]


def test_a_batch_is_applied_concurrently_newest_image_per_key(table: Any) -> None:
    repository, places, stream = table
    items = random_places(random.Random(3), 300, prefix="c")
    write_places(places, items)
    moved = [{**p, "population": p["population"] // 2 + 1} for p in items[:100]]
    write_places(places, moved)  # a second image of a third of the keys in the same batch
    records = stream.new_records()
    result = maintain(repository, records)
    assert not result.failed and result.outcomes["superseded"] == 100
    assert result.outcomes["written"] == 300 and result.entries == 300
    _every_item_has_exactly_its_current_keys(repository)


def test_a_batch_that_fails_half_way_ends_right_once_redelivered(
    table: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lambda redelivers from the lowest failed sequence number: whatever failed or came after is
    applied again, and the keys end right (no item indexed twice, none left out)."""
    repository, places, stream = table
    write_places(places, random_places(random.Random(4), 200, prefix="f"))
    records = stream.new_records()
    real, calls = IndexRepository.write_index_keys, Counter[str]()

    def dies_after_ninety(self: IndexRepository, *args: Any) -> None:
        calls["n"] += 1
        if calls["n"] > 90:
            raise ConnectionError("the worker was killed")
        real(self, *args)

    monkeypatch.setattr(IndexRepository, "write_index_keys", dies_after_ninety)
    failed = maintain(repository, records).failed
    assert 100 <= len(failed) <= 110
    monkeypatch.setattr(IndexRepository, "write_index_keys", real)
    lowest = min(failed)
    again = maintain(repository, [r for r in records if r["dynamodb"]["SequenceNumber"] >= lowest])
    assert not again.failed
    _every_item_has_exactly_its_current_keys(repository)


def test_backfill_resumes_from_its_checkpoint_and_is_idempotent(
    client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    declaration = places_on(f"places-backfill-{uuid.uuid4().hex[:8]}")
    create_table(client, declaration)
    places = random_places(random.Random(5), 1200)
    write_places(PlacesRepository(declaration.table, client), places)  # written before the indexes existed
    repository = IndexRepository(declaration, client)
    path = tmp_path / "backfill.json"
    index_page, pages = analyze.index_page, Counter[str]()

    def crash_on_the_fifth_page(repo: IndexRepository, items: list[dict[str, Any]]) -> Counter[str]:
        pages["seen"] += 1
        if pages["seen"] == 5:
            raise RuntimeError("the backfill crashed")
        return index_page(repo, items)

    command = importlib.import_module("tatami.commands.zindex")  # the package exports the group by that name
    monkeypatch.setattr(command, "index_page", crash_on_the_fifth_page)
    with pytest.raises(RuntimeError):
        run_backfill(client, repository, 3, Checkpoint.open(path, declaration.table, 3), page_size=100)
    assert path.exists()
    monkeypatch.setattr(command, "index_page", index_page)
    _, outcomes = run_backfill(
        client, repository, 3, Checkpoint.open(path, declaration.table, 3), page_size=100
    )
    assert outcomes == {"written": len(places)}  # each item written once across both runs
    assert not path.exists()  # a finished scan removes its checkpoint
    _every_item_has_exactly_its_current_keys(repository)
    _, again = run_backfill(
        client, repository, 2, Checkpoint.open(tmp_path / "again.json", declaration.table, 2)
    )
    assert again == {"unchanged": len(places)}
