"""Keeping the sparse GSI in step with the table, one stream record (or scanned item) at a time.

For an item holding every indexed attribute, compute its address and bucket; write them back only if
they differ from what the item holds, on condition that the indexed attributes still hold the values
this image saw (otherwise a newer write won and its own stream record brings the right address). The
MODIFY that the write-back causes finds the address already right: no write, so no loop. An item that
lost an indexed attribute, or whose values cannot be encoded, leaves the index.
"""

from __future__ import annotations

import base64
import enum
from collections.abc import Mapping
from typing import Any

from aws_lambda_powertools.metrics import MetricUnit
from boto3.dynamodb.types import TypeDeserializer

from common.observability import logger, metrics
from places import repository
from places.addressing import has_dimensions, placement
from places.exceptions import StaleImageError, UnencodableError
from places.settings import IndexSettings

_deserializer = TypeDeserializer()


class Outcome(enum.Enum):
    WRITTEN = "written"  # address set or changed
    UNCHANGED = "unchanged"  # already right: the no-op that ends the write-back loop
    REMOVED = "removed"  # left the index (a dimension removed, or unencodable values)
    ABSENT = "absent"  # not indexed and nothing to remove
    STALE = "stale"  # a newer write won; its own record will place the item
    UNENCODABLE = "unencodable"  # values the schema cannot order: left out, logged, counted
    IGNORED = "ignored"  # REMOVE records and reserved items


def image_of(stream_image: Mapping[str, Any]) -> dict[str, Any]:
    """A stream image (DynamoDB JSON as Lambda delivers it, binaries in base64) as Python values."""
    out = {}
    for name, value in stream_image.items():
        if "B" in value and isinstance(value["B"], str):
            value = {"B": base64.b64decode(value["B"])}
        out[name] = _deserializer.deserialize(value)
    return out


def _remove(settings: IndexSettings, key: Any, image: Mapping[str, Any]) -> Outcome:
    if image.get(settings.address_attribute) is None and image.get(settings.bucket_attribute) is None:
        return Outcome.ABSENT
    repository.remove_placement(settings, key, image)
    return Outcome.REMOVED


def index_item(settings: IndexSettings, image: Mapping[str, Any]) -> Outcome:
    """Bring one item's index keys in line with its indexed values (the maintainer's and backfill's step).

    Raises only for unexpected errors (the batch then reports the record as failed and it is retried).
    """
    key = image[settings.key_attribute]
    if isinstance(key, str) and key.startswith("__"):
        return Outcome.IGNORED  # reserved items (the planner statistics) are not places
    try:
        if not has_dimensions(settings, image):
            return _remove(settings, key, image)
        try:
            target = placement(settings, image)
        except UnencodableError as exc:
            logger.warning(
                "unencodable item left out of the index", extra={"key": str(key), "reason": str(exc)}
            )
            metrics.add_metric(name="UnencodableItems", unit=MetricUnit.Count, value=1)
            _remove(settings, key, image)
            return Outcome.UNENCODABLE
        stored = image.get(settings.address_attribute)
        if (
            stored is not None
            and repository.binary(stored) == target.address
            and image.get(settings.bucket_attribute) == target.bucket
        ):
            return Outcome.UNCHANGED
        repository.set_placement(settings, key, target, image)
        return Outcome.WRITTEN
    except StaleImageError:
        return Outcome.STALE


def maintain_record(settings: IndexSettings, record: Mapping[str, Any]) -> Outcome:
    """Handle one DynamoDB stream record (the raw dict Lambda delivers)."""
    if record.get("eventName") not in ("INSERT", "MODIFY"):
        return Outcome.IGNORED
    image = image_of(record["dynamodb"].get("NewImage") or {})
    if settings.key_attribute not in image:
        image.update(image_of(record["dynamodb"]["Keys"]))
    outcome = index_item(settings, image)
    if outcome is Outcome.WRITTEN:
        metrics.add_metric(name="AddressesWritten", unit=MetricUnit.Count, value=1)
    return outcome
