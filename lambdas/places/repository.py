"""The places table: key names, expressions and ``ClientError`` translation live here and nowhere else.

Items: ``id`` (the key), ``name``, ``latitude``, ``longitude``, ``population``, optional ``country``, and the
index keys the maintainer writes (``zaddr`` binary, ``zbucket`` string; names from the settings). Writers
of user attributes never touch the index keys, so a write that leaves the indexed values unchanged keeps
the item's address and costs no maintenance write.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import boto3
from boto3.dynamodb.conditions import Attr, ConditionBase, Key
from boto3.dynamodb.types import Binary
from botocore.config import Config
from botocore.exceptions import ClientError

from common.repository import CONDITION_FAILED
from places.addressing import Placement
from places.exceptions import PlaceNotFoundError, StaleImageError
from places.settings import IndexSettings

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.service_resource import Table

USER_ATTRIBUTES = ("name", "latitude", "longitude", "population", "country")
STATISTICS_ATTRIBUTE = "statistics"
# Searches fan out over buckets in parallel threads: give them enough pooled connections.
_CONFIG = Config(max_pool_connections=32, retries={"mode": "adaptive", "max_attempts": 8})


_resources: list[Any] = []  # the one DynamoDB resource of this process (Lambda: per execution environment)


def _resource() -> Any:
    if not _resources:
        _resources.append(boto3.resource("dynamodb", config=_CONFIG))
    return _resources[0]


def use_resource(resource: Any) -> None:
    """Inject the DynamoDB resource (the CLI's target, a test's endpoint); by default one is made lazily."""
    _resources[:] = [resource]


def table(name: str) -> Table:
    """The table, through one resource created lazily and reused across warm invocations."""
    found: Table = _resource().Table(name)
    return found


def binary(value: Any) -> bytes:
    """Bytes of a binary attribute as the resource layer returns it (``Binary``) or as bytes."""
    return value.value if isinstance(value, Binary) else bytes(value)


def get_place(settings: IndexSettings, place_id: str) -> dict[str, Any]:
    """The item with this id; raises PlaceNotFoundError."""
    item = table(settings.table).get_item(Key={settings.key_attribute: place_id}).get("Item")
    if item is None:
        raise PlaceNotFoundError(place_id)
    return item


def put_place(settings: IndexSettings, place_id: str, attributes: Mapping[str, Any]) -> dict[str, Any]:
    """Replace the user attributes of a place (index keys untouched); returns the stored item."""
    names = {f"#a{i}": name for i, name in enumerate(USER_ATTRIBUTES)}
    sets = [f"#a{i} = :v{i}" for i, name in enumerate(USER_ATTRIBUTES) if attributes.get(name) is not None]
    removes = [f"#a{i}" for i, name in enumerate(USER_ATTRIBUTES) if attributes.get(name) is None]
    values = {
        f":v{i}": attributes[name]
        for i, name in enumerate(USER_ATTRIBUTES)
        if attributes.get(name) is not None
    }
    expression = "SET " + ", ".join(sets) + (" REMOVE " + ", ".join(removes) if removes else "")
    response = table(settings.table).update_item(
        Key={settings.key_attribute: place_id},
        UpdateExpression=expression,
        ExpressionAttributeNames=names,
        ExpressionAttributeValues=values,
        ReturnValues="ALL_NEW",
    )
    return dict(response["Attributes"])


def _still(settings: IndexSettings, image: Mapping[str, Any]) -> ConditionBase:
    """The item exists and every indexed attribute still holds the image's value (or is still absent)."""
    condition: ConditionBase = Attr(settings.key_attribute).exists()
    for name in settings.schema.names:
        value = image.get(name)
        condition = condition & (Attr(name).not_exists() if value is None else Attr(name).eq(value))
    return condition


def set_placement(settings: IndexSettings, key: Any, placement: Placement, image: Mapping[str, Any]) -> None:
    """Write the index keys, unless a newer write changed the indexed values (raises StaleImageError)."""
    values = {":z": Binary(placement.address), ":b": placement.bucket}
    _update_index_keys(settings, key, image, "SET #z = :z, #b = :b", values)


def remove_placement(settings: IndexSettings, key: Any, image: Mapping[str, Any]) -> None:
    """Take the item out of the sparse GSI, unless a newer write changed the indexed values."""
    _update_index_keys(settings, key, image, "REMOVE #z, #b")


def _update_index_keys(
    settings: IndexSettings,
    key: Any,
    image: Mapping[str, Any],
    expression: str,
    values: Mapping[str, Any] | None = None,
) -> None:
    """Apply ``expression`` to the index keys (#z, #b) while the item still holds ``image``'s values."""
    extra: dict[str, Any] = {"ExpressionAttributeValues": dict(values)} if values else {}
    try:
        table(settings.table).update_item(
            Key={settings.key_attribute: key},
            UpdateExpression=expression,
            ConditionExpression=_still(settings, image),
            ExpressionAttributeNames={"#z": settings.address_attribute, "#b": settings.bucket_attribute},
            **extra,
        )
    except ClientError as exc:
        if exc.response.get("Error", {}).get("Code") == CONDITION_FAILED:
            raise StaleImageError(str(key)) from exc
        raise


@dataclass
class Page:
    """One Query or Scan response: the items that passed the filter and what the call cost."""

    items: list[dict[str, Any]]
    scanned: int
    consumed_rcu: float
    last_key: dict[str, Any] | None


def query_span(
    settings: IndexSettings,
    bucket: str,
    first: bytes,
    last: bytes,
    condition: ConditionBase | None,
    limit: int | None,
    start_key: Mapping[str, Any] | None,
) -> Page:
    """One Query of the Z-order GSI: ``bucket`` and addresses ``first..last``, filtered by ``condition``."""
    request: dict[str, Any] = {
        "IndexName": settings.index,
        "KeyConditionExpression": Key(settings.bucket_attribute).eq(bucket)
        & Key(settings.address_attribute).between(Binary(first), Binary(last)),
        "ReturnConsumedCapacity": "TOTAL",
    }
    if condition is not None:
        request["FilterExpression"] = condition
    if limit is not None:
        request["Limit"] = limit
    if start_key is not None:
        request["ExclusiveStartKey"] = dict(start_key)
    response = table(settings.table).query(**request)
    return Page(
        items=list(response.get("Items", [])),
        scanned=int(response.get("ScannedCount", 0)),
        consumed_rcu=float(response.get("ConsumedCapacity", {}).get("CapacityUnits", 0.0)),
        last_key=response.get("LastEvaluatedKey"),
    )


def index_addresses(settings: IndexSettings, bucket: str) -> Iterable[bytes]:
    """Every address in one bucket of the GSI (keys only: the cheapest read of the index)."""
    start: dict[str, Any] | None = None
    while True:
        request: dict[str, Any] = {
            "IndexName": settings.index,
            "KeyConditionExpression": Key(settings.bucket_attribute).eq(bucket),
            "ProjectionExpression": "#z",
            "ExpressionAttributeNames": {"#z": settings.address_attribute},
        }
        if start is not None:
            request["ExclusiveStartKey"] = start
        response = table(settings.table).query(**request)
        for item in response.get("Items", []):
            yield binary(item[settings.address_attribute])
        start = response.get("LastEvaluatedKey")
        if start is None:
            return


def get_statistics(settings: IndexSettings) -> bytes | None:
    item = table(settings.table).get_item(Key={settings.key_attribute: settings.statistics_key}).get("Item")
    return None if item is None else binary(item[STATISTICS_ATTRIBUTE])


def put_statistics(settings: IndexSettings, data: bytes) -> None:
    table(settings.table).put_item(
        Item={settings.key_attribute: settings.statistics_key, STATISTICS_ATTRIBUTE: Binary(data)}
    )


def write_places(settings: IndexSettings, items: Iterable[Mapping[str, Any]]) -> int:
    """Bulk-write items with BatchWriteItem (25 per call, unprocessed items retried); returns the count."""
    written = 0
    with table(settings.table).batch_writer() as batch:
        for item in items:
            batch.put_item(Item=dict(item))
            written += 1
    return written


def as_number(value: float | int) -> Decimal:
    """A DynamoDB number from a float or int, through its shortest repr (35.6 stays 35.6)."""
    return Decimal(str(value))
