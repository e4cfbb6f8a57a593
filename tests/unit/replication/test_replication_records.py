"""Stream records as replica writes: versions order like sequence numbers, tombstones, equality."""

from __future__ import annotations

import base64
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tatami_functions.replication.parking import parked_message
from tatami_functions.replication.records import (
    DELETED,
    EXPIRES,
    VERSION,
    live,
    newest_per_key,
    replica_item,
    version,
)

SEQUENCES = st.integers(min_value=0, max_value=10**40 - 1)


def record(sequence: int, name: str = "MODIFY", key: str = "a", **image: dict[str, str]) -> dict[str, Any]:
    stream: dict[str, Any] = {"Keys": {"PK": {"S": key}}, "SequenceNumber": str(sequence)}
    stream["ApproximateCreationDateTime"] = 1
    if name != "REMOVE":
        stream["NewImage"] = {"PK": {"S": key}, **image}
    return {"eventName": name, "dynamodb": stream}


@given(SEQUENCES, SEQUENCES)
def test_versions_compare_as_the_sequence_numbers_do(a: int, b: int) -> None:
    assert (version(record(a)) < version(record(b))) == (a < b)
    assert len(version(record(a))) == 40


@given(st.lists(st.tuples(st.sampled_from("abc"), SEQUENCES), min_size=1, max_size=30))
def test_the_newest_record_of_each_key_survives(changes: list[tuple[str, int]]) -> None:
    newest = newest_per_key([record(seq, key=key) for key, seq in changes])
    expected = {key: max(seq for k, seq in changes if k == key) for key, _ in changes}
    kept = {r["dynamodb"]["Keys"]["PK"]["S"]: int(r["dynamodb"]["SequenceNumber"]) for r in newest.values()}
    assert kept == expected


def test_a_put_carries_the_image_and_its_version() -> None:
    blob = base64.b64encode(b"\x00\xff").decode()
    item = replica_item(record(12, bytessent={"N": "7"}, raw={"B": blob}), now=0, tombstone_seconds=60)
    assert item[VERSION] == {"S": "12".zfill(40)} and item["raw"] == {"B": b"\x00\xff"}
    assert live(item) == {"PK": {"S": "a"}, "bytessent": {"N": "7"}, "raw": {"B": b"\x00\xff"}}


def test_a_remove_becomes_a_tombstone_that_expires() -> None:
    item = replica_item(record(13, "REMOVE"), now=1000.7, tombstone_seconds=172800)
    assert item[DELETED] == {"BOOL": True} and item[EXPIRES] == {"N": str(1000 + 172800)}
    assert live(item) is None


def test_a_parked_record_names_its_key_and_position() -> None:
    message = parked_message(record(14), "Item size has exceeded the maximum allowed size")
    assert message["keys"] == {"PK": {"S": "a"}} and message["sequenceNumber"] == "14"
    assert message["condition"] == "UnreplicableRecord"
