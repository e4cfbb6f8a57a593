"""One stream-image decoder for every consumer: binaries in base64 at any depth come back as bytes."""

from __future__ import annotations

import base64
from decimal import Decimal
from typing import Any

from boto3.dynamodb.types import Binary, TypeSerializer

from tatami_functions.common.stream_images import plain_image, wire_image
from tatami_functions.devices.archive import expired_log

ITEM = {
    "id": "d1",
    "n": Decimal("1.5"),
    "raw": b"\x00\xff",
    "m": {"inner": b"\x01", "deeper": {"list": [b"\x02", "x"]}},
    "bs": {b"\x03", b"\x04"},
}


def as_lambda_delivers(value: Any) -> Any:
    """The low-level form with every binary base64-encoded, as a stream record carries it."""
    if isinstance(value, bytes | Binary):
        return base64.b64encode(bytes(value)).decode()
    if isinstance(value, dict):
        return {k: as_lambda_delivers(v) for k, v in value.items()}
    if isinstance(value, list | set):
        return [as_lambda_delivers(v) for v in value]
    return value


def test_wire_image_gives_the_low_level_form_back_at_every_depth() -> None:
    wire = {name: TypeSerializer().serialize(value) for name, value in ITEM.items()}
    decoded = wire_image(as_lambda_delivers(wire))
    assert decoded["m"]["M"]["deeper"]["M"]["list"]["L"][0] == {"B": b"\x02"}
    assert decoded["raw"] == {"B": b"\x00\xff"} and sorted(decoded["bs"]["BS"]) == [b"\x03", b"\x04"]


def test_plain_image_gives_python_values() -> None:
    wire = {name: TypeSerializer().serialize(value) for name, value in ITEM.items()}
    plain = plain_image(as_lambda_delivers(wire))
    assert plain["n"] == Decimal("1.5") and plain["m"]["deeper"]["list"] == [Binary(b"\x02"), "x"]


def test_the_ttl_archive_decodes_a_deleted_log_with_nested_binaries() -> None:
    image = as_lambda_delivers({"device_id": {"S": "d1"}, "extra": {"M": {"b": {"B": b"\x05"}}}})
    record = {"eventName": "REMOVE", "dynamodb": {"OldImage": image}}
    assert expired_log(record) == {"device_id": "d1", "extra": {"b": "BQ=="}}  # JSON: base64 text
