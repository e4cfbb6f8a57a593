"""Stream images as Lambda delivers them: DynamoDB JSON with binaries in base64, nested ones included.

Every stream consumer of the functions decodes images here: `wire_image` gives back the low-level
client's form (binaries as bytes, so the item can be written again), `plain_image` Python values
(numbers as `Decimal`, binaries as `bytes`, through boto3's `TypeDeserializer`). The Z-index engine
in the zorder layer has its own decoder (`zindex.dynamojson`): this shared code cannot import it in
functions that do not carry that layer.
"""

from __future__ import annotations

import base64
from typing import Any

from tatami_functions.common.attribute_values import deserialize

__all__ = ["plain_image", "wire_image"]

Image = dict[str, Any]  # attribute name -> {"S": ...} | {"B": ...} | {"M": {...}} | ...


def wire_image(image: Image) -> Image:
    """`image` for the low-level client: every binary, however deeply nested, back to bytes.

    >>> wire_image({"k": {"S": "a"}, "m": {"M": {"b": {"B": "AAE="}}}, "l": {"L": [{"BS": ["AQ=="]}]}})
    {'k': {'S': 'a'}, 'm': {'M': {'b': {'B': b'\\x00\\x01'}}}, 'l': {'L': [{'BS': [b'\\x01']}]}}
    """
    return {name: _wire_value(value) for name, value in image.items()}


def plain_image(image: Image) -> dict[str, Any]:
    """`image` as Python values.

    >>> plain_image({"n": {"N": "1.5"}, "m": {"M": {"b": {"B": "AAE="}}}})
    {'n': Decimal('1.5'), 'm': {'b': Binary(b'\\x00\\x01')}}
    """
    return {name: deserialize(value) for name, value in wire_image(image).items()}


def _wire_value(value: dict[str, Any]) -> dict[str, Any]:
    ((kind, inner),) = value.items()
    if kind == "B":
        return {"B": base64.b64decode(inner)}
    if kind == "BS":
        return {"BS": [base64.b64decode(item) for item in inner]}
    if kind == "M":
        return {"M": wire_image(inner)}
    if kind == "L":
        return {"L": [_wire_value(item) for item in inner]}
    return value
