"""Query and Scan pages of the model: Limit, the 1 MB page (entries or items), LastEvaluatedKey, read
units, Scan segments, in both semantics (DynamoDB's documentation and DynamoDB Local's)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from tatami.dynamodb_model import DOCUMENTED, DYNAMODB_LOCAL, ModelDynamoDB, Semantics
from tatami.dynamodb_model.expressions import Unsupported
from zindex.dynamojson import to_item
from zindex.sizes import item_size

GSI = {
    "IndexName": "by-z",
    "KeySchema": [{"AttributeName": "b", "KeyType": "HASH"}, {"AttributeName": "z", "KeyType": "RANGE"}],
    "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["p", "pad"]},
}


def _items(count: int, pad: int) -> list[dict[str, Any]]:
    return [
        {"id": f"i{n:05d}", "b": "x" if n % 3 else "y", "z": n.to_bytes(2), "p": n * 7, "pad": "." * pad}
        | {"extra": "-" * 40}  # not projected: an entry is smaller than its item
        for n in range(count)
    ]


def _model(semantics: Semantics, count: int = 300, pad: int = 10) -> ModelDynamoDB:
    model = ModelDynamoDB(semantics)
    model.create_table(
        TableName="t", KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}], GlobalSecondaryIndexes=[GSI]
    )
    model.load_items("t", _items(count, pad))
    return model


def _query(model: ModelDynamoDB, **extra: Any) -> dict[str, Any]:
    return model.query(
        TableName="t",
        IndexName="by-z",
        KeyConditionExpression="b = :b AND z BETWEEN :lo AND :hi",
        ExpressionAttributeValues={":b": {"S": "x"}, ":lo": {"B": b"\x00\x0a"}, ":hi": {"B": b"\x00\xc8"}},
        ReturnConsumedCapacity="TOTAL",
        **extra,
    )


def test_a_limit_stops_the_page_and_says_where_even_at_the_end() -> None:
    model = _model(DOCUMENTED)
    whole = _query(model)
    assert whole["ScannedCount"] == 128 and "LastEvaluatedKey" not in whole
    entries = [to_item(i) for i in whole["Items"]]
    assert [e["z"] for e in entries] == sorted(e["z"] for e in entries)
    assert set(entries[0]) == {"id", "b", "z", "p", "pad"}  # the projection: keys and what it includes
    assert whole["ConsumedCapacity"]["CapacityUnits"] == 0.5 * math.ceil(sum(map(item_size, entries)) / 4096)
    exact = _query(model, Limit=128)
    assert exact["Count"] == 128 and to_item(exact["LastEvaluatedKey"])["id"] == entries[-1]["id"]
    pages, start = [], None
    while True:
        page = _query(model, Limit=10, **({"ExclusiveStartKey": start} if start else {}))
        pages += page["Items"]
        if (start := page.get("LastEvaluatedKey")) is None:
            break
    assert pages == whole["Items"]


def test_a_filter_bills_every_entry_read() -> None:
    model = _model(DOCUMENTED)
    values = {":b": {"S": "x"}, ":lo": {"B": b"\x00\x0a"}, ":hi": {"B": b"\x00\xc8"}, ":p": {"N": "1000"}}
    page = model.query(
        TableName="t",
        IndexName="by-z",
        KeyConditionExpression="b = :b AND z BETWEEN :lo AND :hi",
        FilterExpression="p >= :p",
        ExpressionAttributeValues=values,
        ReturnConsumedCapacity="TOTAL",
    )
    assert page["ScannedCount"] == 128 and page["Count"] == sum(
        1 for n in range(10, 201) if n % 3 and n * 7 >= 1000
    )
    assert page["ConsumedCapacity"] == _query(model)["ConsumedCapacity"]


@pytest.mark.parametrize(("semantics", "counted"), [(DOCUMENTED, "entry"), (DYNAMODB_LOCAL, "item")])
def test_a_page_stops_at_the_entry_that_reaches_one_megabyte(semantics: Semantics, counted: str) -> None:
    model = _model(semantics, count=8_000, pad=200)
    page = model.query(
        TableName="t",
        IndexName="by-z",
        KeyConditionExpression="b = :b",
        ExpressionAttributeValues={":b": {"S": "x"}},
    )
    entries = [to_item(i) for i in page["Items"]]
    whole = {i["id"]: i for i in _items(8_000, 200)}
    sizes = [item_size(e if counted == "entry" else whole[e["id"]]) for e in entries]
    assert sum(sizes[:-1]) < 1 << 20 <= sum(sizes) and "LastEvaluatedKey" in page


@pytest.mark.parametrize(("semantics", "units"), [(DOCUMENTED, 0.5), (DYNAMODB_LOCAL, 0.0)])
def test_a_page_that_reads_nothing(semantics: Semantics, units: float) -> None:
    page = _model(semantics).query(
        TableName="t",
        IndexName="by-z",
        KeyConditionExpression="b = :b",
        ExpressionAttributeValues={":b": {"S": "nobody"}},
        ReturnConsumedCapacity="TOTAL",
    )
    assert page["Count"] == 0 and page["ConsumedCapacity"]["CapacityUnits"] == units


@pytest.mark.parametrize("semantics", [DOCUMENTED, DYNAMODB_LOCAL])
@pytest.mark.parametrize("index", [None, "by-z"])
def test_scan_segments_share_out_every_item_once(semantics: Semantics, index: str | None) -> None:
    model, found = _model(semantics), []
    for segment in range(3):
        start = None
        while True:
            extra = {"IndexName": index} if index else {}
            if start:
                extra["ExclusiveStartKey"] = start
            page = model.scan(TableName="t", Segment=segment, TotalSegments=3, Limit=17, **extra)
            found += [to_item(i)["id"] for i in page["Items"]]
            if (start := page.get("LastEvaluatedKey")) is None:
                break
    assert sorted(found) == [f"i{n:05d}" for n in range(300)]


def test_parameters_the_model_does_not_read_are_refused() -> None:
    with pytest.raises(Unsupported, match="ProjectionExpression"):
        _query(_model(DOCUMENTED), ProjectionExpression="id")
    with pytest.raises(Unsupported, match="ScanIndexForward"):
        _query(_model(DOCUMENTED), ScanIndexForward=False)
