"""DynamoDB's key sizes, counted as DynamoDB counts them: in UTF-8 bytes, not characters.

A partition key holds at most 2,048 bytes and a sort key 1,024, in a table and in its GSIs alike.
A schema's `max_length` counts characters, and one character is 1 to 4 bytes: 1,024 kana are 3,072
bytes, so text that passes a character limit can still be refused by DynamoDB (a ValidationException,
which would answer 503 and count towards the fault alarm). Every request field that becomes a key,
or part of one, carries `utf8_at_most(n)` beside its other constraints, with `n` what its key leaves
for it, so such text is a 400 naming the field.

>>> from typing import Annotated
>>> from pydantic import TypeAdapter
>>> Subject = Annotated[str, utf8_at_most(SORT_KEY_BYTES)]
>>> TypeAdapter(Subject).validate_python("か" * 341) == "か" * 341
True
>>> TypeAdapter(Subject).validate_python("か" * 342)
Traceback (most recent call last):
...
pydantic_core._pydantic_core.ValidationError: 1 validation error for function-after[...]
  Value error, is 1026 bytes in UTF-8; a DynamoDB key leaves it at most 1024 ...
"""

from __future__ import annotations

from pydantic import AfterValidator

__all__ = ["PARTITION_KEY_BYTES", "SORT_KEY_BYTES", "utf8_at_most"]

PARTITION_KEY_BYTES = 2048
SORT_KEY_BYTES = 1024


def utf8_at_most(max_bytes: int) -> AfterValidator:
    """A pydantic validator refusing text longer than `max_bytes` in UTF-8 (for `Annotated[str, ...]`).

    >>> utf8_at_most(10).func("ok")
    'ok'
    """

    def fits(text: str) -> str:
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > max_bytes:
            raise ValueError(f"is {size} bytes in UTF-8; a DynamoDB key leaves it at most {max_bytes}")
        return text

    return AfterValidator(fits)
