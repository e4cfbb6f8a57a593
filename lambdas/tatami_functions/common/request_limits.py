"""What a request may hold, checked before anything parses it: the body's size, nesting, member count
and number lengths, and the size and count of query parameters and headers.

Python's json module recurses once per nesting level, so a 2 KB body nested 1,000 deep overflows the
interpreter's stack, and it refuses an integer of more than 4,300 digits with a ValueError: either
would crash the function (API Gateway's 502). A body of 100,000 members parses, but pydantic then
reports an error per member (an 11 MB answer, past Lambda's 6 MB). API Gateway hands a function any
body up to 10 MB, so each limit is checked here on the raw text, in linear time and without
recursion: strings are blanked out first (they may hold brackets, commas and digits), then what is
left is counted. Every tatami body is a few levels deep with at most a few hundred members; the
limits are far above that and far below what hurts.

>>> check_body('{"a": [1, 2, {"b": "[[["}]}')
>>> check_body("[" * 100 + "]" * 100)
Traceback (most recent call last):
...
tatami_functions.common.request_limits.LimitExceededError: body: nested deeper than 32 levels
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from itertools import accumulate
from typing import Any

__all__ = ["BodyTooLargeError", "LimitExceededError", "check_body", "check_request"]

MAX_BODY_BYTES = 4 * 1024 * 1024  # a document (1 MiB of UTF-8) with room for JSON escapes
MAX_DEPTH = 32
MAX_MEMBERS = 10_000  # array elements and object members, counted over the whole body
MAX_NUMBER_CHARACTERS = 100  # DynamoDB keeps 38 digits; Python refuses integers past 4,300
MAX_PARAMETERS = 64  # query parameters, counting repeats
MAX_VALUE_CHARACTERS = 8192  # one query parameter or header value (a page token fits)
MAX_NAME_CHARACTERS = 256
MAX_HEADERS = 128

# A JSON string, escapes included (the "unrolled loop" form: no backtracking).
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NUMBER_CHARACTERS = b"-+.eE0123456789"
_AS_NUMBER = bytes.maketrans(_NUMBER_CHARACTERS, b"0" * len(_NUMBER_CHARACTERS))
_LONG_NUMBER = b"0" * (MAX_NUMBER_CHARACTERS + 1)
_NOT_BRACKET = re.compile(rb"[^\[\]{}]+")


class LimitExceededError(ValueError):
    """A part of the request is past a limit: `field` and `where` name it (a 400)."""

    def __init__(self, field: str, where: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field, self.where, self.reason = field, where, reason


class BodyTooLargeError(LimitExceededError):
    """The body is over MAX_BODY_BYTES (a 413)."""


def check_request(event: Mapping[str, Any]) -> None:
    """Raise LimitExceededError for the first part of an API Gateway proxy event past a limit.

    >>> check_request({"queryStringParameters": {"limit": "5"}, "body": "{}"})
    >>> check_request({"multiValueQueryStringParameters": {"next": ["x"] * 65}})
    Traceback (most recent call last):
    ...
    tatami_functions.common.request_limits.LimitExceededError: next: more than 64 query parameters
    """
    _check_values(event.get("multiValueQueryStringParameters") or {}, "query", MAX_PARAMETERS)
    _check_values(event.get("multiValueHeaders") or {}, "header", MAX_HEADERS)
    body = event.get("body")
    if isinstance(body, str) and not event.get("isBase64Encoded"):
        check_body(body)


def check_body(text: str) -> None:
    """Raise LimitExceededError if the JSON text `text` is too large, too deep or too wide, or holds a
    number too long; invalid JSON within the limits is left to the parser."""
    raw = text.encode()
    if len(raw) > MAX_BODY_BYTES:
        raise BodyTooLargeError("body", "body", f"is {len(raw)} bytes; the limit is {MAX_BODY_BYTES}")
    # Counting on the raw text runs at memory speed; only a body whose counts could be past a limit
    # (strings included) pays for blanking its strings out (about 30 ns a byte).
    if _could_exceed(raw):
        _check_structure(_STRING.sub(b'""', raw))


def _could_exceed(raw: bytes) -> bool:
    return (
        raw.count(b",") >= MAX_MEMBERS
        or raw.count(b"[") + raw.count(b"{") > MAX_DEPTH
        or _LONG_NUMBER in raw.translate(_AS_NUMBER)
    )


def _check_structure(skeleton: bytes) -> None:
    """The limits on a body whose strings are blanked out: what is left is structure and numbers."""
    if _LONG_NUMBER in skeleton.translate(_AS_NUMBER):
        raise LimitExceededError("body", "body", f"holds a number longer than {MAX_NUMBER_CHARACTERS}")
    wide = LimitExceededError("body", "body", f"holds more than {MAX_MEMBERS} members")
    if skeleton.count(b",") + 1 > MAX_MEMBERS:
        raise wide
    brackets = _NOT_BRACKET.sub(b"", skeleton)
    if len(brackets) > 2 * MAX_MEMBERS:
        raise wide
    depth = max(accumulate(1 if bracket in b"[{" else -1 for bracket in brackets), default=0)
    if depth > MAX_DEPTH:
        raise LimitExceededError("body", "body", f"nested deeper than {MAX_DEPTH} levels")


def _check_values(values: Mapping[str, Any], where: str, most: int) -> None:
    seen = 0
    for name, listed in values.items():
        listed = listed if isinstance(listed, list) else [listed]
        seen += len(listed)
        if seen > most:
            what = "query parameters" if where == "query" else "headers"
            raise LimitExceededError(name, where, f"more than {most} {what}")
        if len(name) > MAX_NAME_CHARACTERS:
            raise LimitExceededError(name[:40] + "...", where, f"name longer than {MAX_NAME_CHARACTERS}")
        if any(len(str(value)) > MAX_VALUE_CHARACTERS for value in listed):
            raise LimitExceededError(name, where, f"longer than {MAX_VALUE_CHARACTERS} characters")
