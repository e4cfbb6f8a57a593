"""The tables view's data: each table's keys, indexes, TTL and stream, and its items page by page,
grouped by partition key and ordered by sort key (NoSQL Workbench's aggregate view). Read-only.

The descriptions come from a table's properties as the template declares them (locally) or as
DescribeTable answers (a deployed stack): both use the same KeySchema / GlobalSecondaryIndexes shape.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from tatami.console.errors import BadParameter

MAX_PAGE = 500


def describe(name: str, label: str, properties: Mapping[str, Any]) -> dict[str, Any]:
    """A table as the console draws it: keys, attribute types, GSIs and LSIs with projections, TTL, stream."""
    ttl = properties.get("TimeToLiveSpecification") or {}
    stream = properties.get("StreamSpecification") or {}
    return {
        "name": name,
        "label": label,
        "keys": _keys(properties["KeySchema"]),
        "attributes": {
            a["AttributeName"]: a["AttributeType"] for a in properties.get("AttributeDefinitions", [])
        },
        "indexes": [
            {
                "name": index["IndexName"],
                "local": kind == "LocalSecondaryIndexes",
                "keys": _keys(index["KeySchema"]),
                "projection": index.get("Projection", {}).get("ProjectionType", "ALL"),
                "included": index.get("Projection", {}).get("NonKeyAttributes", []),
            }
            for kind in ("GlobalSecondaryIndexes", "LocalSecondaryIndexes")
            for index in properties.get(kind) or []
        ],
        "ttl": ttl.get("AttributeName") if ttl.get("Enabled") else None,
        "stream": stream.get("StreamViewType") if stream.get("StreamEnabled", True) else None,
    }


def _keys(schema: list[dict[str, str]]) -> dict[str, str | None]:
    roles = {key["KeyType"]: key["AttributeName"] for key in schema}
    return {"partition": roles["HASH"], "sort": roles.get("RANGE")}


def page(
    client: Any, table: Mapping[str, Any], index: str | None, limit: int, token: str | None
) -> dict[str, Any]:
    """One Scan page of the table or of one of its indexes, as groups of items by partition key.

    A sparse index shows only the items it holds, because the Scan reads the index itself."""
    keys = table["keys"]
    if index is not None:
        found = [i for i in table["indexes"] if i["name"] == index]
        if not found:
            raise BadParameter("index", f"{table['name']} has no index {index!r}")
        keys = found[0]["keys"]
    if not 1 <= limit <= MAX_PAGE:
        raise BadParameter("limit", f"must be from 1 to {MAX_PAGE}, got {limit}")
    request: dict[str, Any] = {"TableName": table["name"], "Limit": limit}
    if index is not None:
        request["IndexName"] = index
    if token:
        request["ExclusiveStartKey"] = _start_key(token)
    answer = client.scan(**request)
    last = answer.get("LastEvaluatedKey")
    return {
        "keys": keys,
        "groups": groups(answer.get("Items", []), keys["partition"], keys["sort"]),
        "count": answer.get("Count", 0),
        "next": _token(last) if last else None,
    }


def groups(items: list[dict[str, Any]], partition: str, sort: str | None) -> list[dict[str, Any]]:
    """Items grouped by partition key (in the order the Scan met them), each group by sort key.

    >>> groups([{"pk": {"S": "a"}, "sk": {"N": "10"}}, {"pk": {"S": "a"}, "sk": {"N": "9"}}], "pk", "sk")
    [{'partition': 'a', 'items': [{'pk': 'a', 'sk': '9'}, {'pk': 'a', 'sk': '10'}]}]
    """
    collected: dict[str, list[dict[str, Any]]] = {}
    for item in items:
        collected.setdefault(display(item.get(partition)), []).append(item)
    return [
        {
            "partition": value,
            "items": [
                {name: display(attribute) for name, attribute in item.items()}
                for item in sorted(members, key=lambda item: _order(item.get(sort) if sort else None))
            ],
        }
        for value, members in collected.items()
    ]


def display(value: Mapping[str, Any] | None) -> str:
    """An attribute value as text: strings and numbers as they are, binary as hex, the rest as JSON.

    >>> display({"B": b"\\x01\\xff"}), display({"N": "3.5"}), display({"L": [{"S": "x"}, {"BOOL": True}]})
    ('01ff', '3.5', '["x", true]')
    """
    if value is None:
        return ""
    ((kind, data),) = value.items()
    if kind in ("S", "N"):
        return str(data)
    if kind == "B":
        return bytes(data).hex()
    return json.dumps(_plain(kind, data), ensure_ascii=False)


def _plain(kind: str, data: Any) -> Any:
    if kind == "B":
        return bytes(data).hex()
    if kind == "N":
        return float(Decimal(data)) if "." in data or "e" in data.lower() else int(data)
    if kind in ("SS", "NS", "BS"):
        return [_plain(kind[0], member) for member in data]
    if kind == "L":
        return [_plain(*next(iter(member.items()))) for member in data]
    if kind == "M":
        return {name: _plain(*next(iter(member.items()))) for name, member in data.items()}
    return None if kind == "NULL" else data


def _order(value: Mapping[str, Any] | None) -> tuple[int, Any]:
    if value is None:
        return (0, "")
    ((kind, data),) = value.items()
    if kind == "N":
        return (1, Decimal(data))
    return (2, bytes(data)) if kind == "B" else (3, str(data))


def _token(key: Mapping[str, Any]) -> str:
    plain = {
        name: {k: base64.b64encode(v).decode() if k == "B" else v for k, v in value.items()}
        for name, value in key.items()
    }
    return base64.urlsafe_b64encode(json.dumps(plain).encode()).decode()


def _start_key(token: str) -> dict[str, Any]:
    try:
        plain = json.loads(base64.urlsafe_b64decode(token.encode()))
        return {
            name: {k: base64.b64decode(v) if k == "B" else v for k, v in value.items()}
            for name, value in plain.items()
        }
    except (ValueError, TypeError, AttributeError, binascii.Error):
        raise BadParameter("next", "is not a token this console issued") from None
