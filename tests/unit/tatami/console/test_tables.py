"""tatami/console/tables.py: a table as the template declares it, and its items a page at a time,
grouped by partition key and ordered by sort key, read-only."""

from __future__ import annotations

from typing import Any

import pytest

from tatami.console.errors import BadParameter
from tatami.console.tables import describe, page

PROPERTIES = {
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
    "AttributeDefinitions": [
        {"AttributeName": "pk", "AttributeType": "S"},
        {"AttributeName": "sk", "AttributeType": "N"},
    ],
    "GlobalSecondaryIndexes": [
        {
            "IndexName": "sparse",
            "KeySchema": [{"AttributeName": "flag", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["note"]},
        }
    ],
    "TimeToLiveSpecification": {"AttributeName": "expires", "Enabled": True},
    "StreamSpecification": {"StreamViewType": "NEW_AND_OLD_IMAGES"},
}
TABLE = describe("T-Table", "Table", PROPERTIES)


class Scans:
    """A DynamoDB client that answers Scans from a list of pages and records what it was asked."""

    def __init__(self, *pages: dict[str, Any]) -> None:
        self.pages, self.asked = list(pages), list[dict[str, Any]]()

    def scan(self, **request: Any) -> dict[str, Any]:
        self.asked.append(request)
        return self.pages.pop(0)


def test_a_table_is_described_with_keys_indexes_ttl_and_stream() -> None:
    assert TABLE["keys"] == {"partition": "pk", "sort": "sk"}
    assert TABLE["indexes"] == [
        {
            "name": "sparse",
            "local": False,
            "keys": {"partition": "flag", "sort": None},
            "projection": "INCLUDE",
            "included": ["note"],
        }
    ]
    assert (TABLE["ttl"], TABLE["stream"], TABLE["attributes"]) == (
        "expires",
        "NEW_AND_OLD_IMAGES",
        {"pk": "S", "sk": "N"},
    )


def test_items_are_grouped_by_partition_and_ordered_by_sort_key_and_pages_go_on() -> None:
    last = {"pk": {"S": "b"}, "sk": {"N": "1"}, "blob": {"B": b"\x00\x01"}}
    client = Scans(
        {
            "Items": [{"pk": {"S": "a"}, "sk": {"N": "10"}}, last, {"pk": {"S": "a"}, "sk": {"N": "9"}}],
            "Count": 3,
            "LastEvaluatedKey": {"pk": {"S": "b"}, "sk": {"N": "1"}, "blob": {"B": b"\x00\x01"}},
        },
        {"Items": [], "Count": 0},
    )
    first = page(client, TABLE, None, 3, None)
    assert [(g["partition"], [i["sk"] for i in g["items"]]) for g in first["groups"]] == [
        ("a", ["9", "10"]),
        ("b", ["1"]),
    ]
    assert first["groups"][1]["items"][0]["blob"] == "0001"
    second = page(client, TABLE, "sparse", 3, first["next"])
    assert second["next"] is None and second["keys"] == {"partition": "flag", "sort": None}
    assert client.asked[1] == {
        "TableName": "T-Table",
        "Limit": 3,
        "IndexName": "sparse",
        "ExclusiveStartKey": last,
    }


@pytest.mark.parametrize(
    ("index", "limit", "token", "field"),
    [
        ("nope", 10, None, "index"),
        (None, 0, None, "limit"),
        (None, 501, None, "limit"),
        (None, 10, "forged!", "next"),
    ],
)
def test_bad_parameters_are_named(index: str | None, limit: int, token: str | None, field: str) -> None:
    with pytest.raises(BadParameter) as raised:
        page(Scans(), TABLE, index, limit, token)
    assert raised.value.field == field
