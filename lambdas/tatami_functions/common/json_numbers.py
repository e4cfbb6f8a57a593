"""Whole numbers as JSON and the OpenAPI document count them.

JSON has one kind of number, and JSON Schema's `integer` is any number without a fractional part:
`2.0` is an integer to the document (a fuzzer generating from it sends one), while `"2"` and `true`
are no numbers at all. pydantic's strict int refuses `2.0`, and its lax int takes `"2"` too. A model
keeps its fields strict ints and adds `whole_numbers(...)`, so they take exactly what the document
calls an integer. (A validator inside the field's type would hide its bounds from the document.)

>>> from pydantic import BaseModel, Field, StrictInt, ValidationError
>>> class Body(BaseModel):
...     by: StrictInt = Field(ge=-9, le=9)
...     _whole = whole_numbers("by")
>>> Body.model_validate_json('{"by": 2.0}').by, Body.model_json_schema()["properties"]["by"]["maximum"]
(2, 9)
>>> for text in ('"2"', "true", "2.5", "1e400"):
...     try:
...         Body.model_validate_json(f'{{"by": {text}}}')
...     except ValidationError as exc:
...         print(text, exc.errors()[0]["type"])
"2" int_type
true int_type
2.5 int_type
1e400 int_type
"""

from __future__ import annotations

from typing import Any

from pydantic import field_validator

__all__ = ["whole_numbers"]


def whole_numbers(*fields: str) -> Any:
    """A model's validator reading `2.0` in `fields` as 2 before their strict ints check them."""
    return field_validator(*fields, mode="before")(_integral_float_as_int)


def _integral_float_as_int(value: object) -> object:
    """`2.0` as 2; anything else (a fractional float, an infinity, a NaN) left for the int to refuse."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value
