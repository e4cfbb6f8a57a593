"""Writes on the model: the write units DynamoDB bills per table and per GSI (the rules DynamoDB Local
reports with ReturnConsumedCapacity=INDEXES), conditions, and items written after a load read exactly
as if they had been loaded."""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

import pytest
from botocore.exceptions import ClientError

from tatami.dynamodb_model import DOCUMENTED, DYNAMODB_LOCAL, ModelDynamoDB, Semantics
from zindex.dynamojson import to_item, to_wire_item

INDEXES = [
    {
        "IndexName": "by-z",
        "KeySchema": [{"AttributeName": "b", "KeyType": "HASH"}, {"AttributeName": "z", "KeyType": "RANGE"}],
        "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["p", "lat"]},
    },
    {
        "IndexName": "by-p",
        "KeySchema": [{"AttributeName": "s", "KeyType": "HASH"}, {"AttributeName": "p", "KeyType": "RANGE"}],
        "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["lat"]},
    },
]


def _model(semantics: Semantics = DOCUMENTED) -> ModelDynamoDB:
    model = ModelDynamoDB(semantics)
    model.create_table(
        TableName="t", KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}], GlobalSecondaryIndexes=INDEXES
    )
    return model


def _update(model: ModelDynamoDB, expression: str, values: dict[str, Any], **extra: Any) -> dict[str, Any]:
    response = model.update_item(
        TableName="t",
        Key={"id": {"S": "a"}},
        UpdateExpression=expression,
        ExpressionAttributeValues={k: v for k, v in to_wire_item(values).items()} if values else {},
        ReturnConsumedCapacity="INDEXES",
        **extra,
    )
    capacity = response["ConsumedCapacity"]
    return {name: c["CapacityUnits"] for name, c in capacity.get("GlobalSecondaryIndexes", {}).items()} | {
        "table": capacity["Table"]["CapacityUnits"]
    }


def test_gsi_writes_follow_what_changed_in_each_entry() -> None:
    """The sequence DynamoDB Local was measured with (its figures on the right)."""
    model = _model()
    model.put_item(TableName="t", Item=to_wire_item({"id": "a", "p": 5, "lat": Decimal("1.5")}))
    assert _update(model, "SET b = :b, z = :z, s = :s", {":b": "x", ":z": b"\x01", ":s": "sh"}) == {
        "table": 1.0,
        "by-z": 1.0,
        "by-p": 1.0,  # both entries put
    }
    assert _update(model, "SET b = :b, z = :z", {":b": "x", ":z": b"\x01"}) == {"table": 1.0}  # unchanged
    assert _update(model, "SET z = :z", {":z": b"\x02"}) == {"table": 1.0, "by-z": 2.0}  # moved: delete + put
    assert _update(model, "SET lat = :l", {":l": Decimal("2.5")}) == {"table": 1.0, "by-z": 1.0, "by-p": 1.0}
    assert _update(model, "SET other1 = :o", {":o": "o"}) == {"table": 1.0}  # not projected anywhere
    assert _update(model, "REMOVE b, z, s", {}) == {"table": 1.0, "by-z": 1.0, "by-p": 1.0}  # both removed
    model.put_item(TableName="t", Item=to_wire_item({"id": "big", "d": "x" * 1500}))
    response = model.update_item(
        TableName="t",
        Key={"id": {"S": "big"}},
        UpdateExpression="SET d = :d",
        ExpressionAttributeValues={":d": {"S": "y"}},
        ReturnConsumedCapacity="TOTAL",
    )
    assert response["ConsumedCapacity"]["CapacityUnits"] == 2.0  # the larger of before and after


def test_a_failed_condition_writes_nothing_and_is_billed() -> None:
    model = _model()
    model.put_item(TableName="t", Item=to_wire_item({"id": "a", "p": 5}))
    before = model.meter.copy()
    with pytest.raises(ClientError) as failed:
        model.update_item(
            TableName="t",
            Key={"id": {"S": "a"}},
            UpdateExpression="SET p = :new",
            ConditionExpression="p = :old",
            ExpressionAttributeValues={":new": {"N": "7"}, ":old": {"N": "6"}},
        )
    assert failed.value.response["Error"]["Code"] == "ConditionalCheckFailedException"
    assert to_item(model.get_item(TableName="t", Key={"id": {"S": "a"}})["Item"])["p"] == 5
    assert model.meter.write_units["table"] - before.write_units["table"] == 1


def _random_item(rng: random.Random, key: str) -> dict[str, Any]:
    item: dict[str, Any] = {"id": key, "p": rng.randint(0, 30), "lat": Decimal(rng.randint(-900, 900)) / 10}
    if rng.random() < 0.8:  # in by-z (sparse)
        item |= {"b": rng.choice(["x", "y"]), "z": bytes([rng.randrange(8), rng.randrange(256)])}
    if rng.random() < 0.8:  # in by-p
        item["s"] = rng.choice(["s0", "s1"])
    return item


def _every_page(model: ModelDynamoDB, index: str, partition: str, limit: int) -> list[Any]:
    keys = {"by-z": ("b", "z"), "by-p": ("s", "p")}[index]
    found, start = [], None
    while True:
        page = model.query(
            TableName="t",
            IndexName=index,
            KeyConditionExpression="#h = :h",
            ExpressionAttributeNames={"#h": keys[0]},
            ExpressionAttributeValues={":h": {"S": partition}},
            Limit=limit,
            ReturnConsumedCapacity="TOTAL",
            **({"ExclusiveStartKey": start} if start else {}),
        )
        found.append((page["Items"], page["ScannedCount"], page["ConsumedCapacity"]["CapacityUnits"]))
        if (start := page.get("LastEvaluatedKey")) is None:
            return found


@pytest.mark.parametrize("semantics", [DOCUMENTED, DYNAMODB_LOCAL])
def test_written_items_read_as_if_they_had_been_loaded(semantics: Semantics) -> None:
    rng = random.Random(4)
    loaded = {f"k{n:03d}": _random_item(rng, f"k{n:03d}") for n in range(300)}
    written = _model(semantics)
    written.load_items("t", list(loaded.values()))
    for _ in range(200):  # puts, updates, deletes and new items over the loaded ones
        key = f"k{rng.randrange(360):03d}"
        if rng.random() < 0.2:
            written.delete_item(TableName="t", Key={"id": {"S": key}})
            loaded.pop(key, None)
        else:
            loaded[key] = _random_item(rng, key)
            written.put_item(TableName="t", Item=to_wire_item(loaded[key]))
    fresh = _model(semantics)
    fresh.load_items("t", list(loaded.values()))
    if semantics.hash_order:  # the load order of the fresh table is not the written one's
        for index, partition in (("by-z", "x"), ("by-z", "y"), ("by-p", "s0"), ("by-p", "s1")):
            for limit in (3, 1000):
                assert _every_page(written, index, partition, limit) == _every_page(
                    fresh, index, partition, limit
                )
    scanned = written.scan(TableName="t")
    assert sorted(to_item(i)["id"] for i in scanned["Items"]) == sorted(loaded)
